// Counts in words, as the command line says them (exactmines/words.py): "1 mine", "2 mines".

/** `count` and `word`, plural unless the count is 1 (give `words` where "s" is wrong). */
export function plural(count, word, words = `${word}s`) {
  return `${count} ${count === 1 ? word : words}`;
}
