/**
 * Python's `fnmatch.fnmatchcase`: `*`, `?`, `[seq]`, `[!seq]`, whole-string match. lm-eval matches task
 * globs such as `mmlu_*` with it, so `--tasks` patterns select the same tasks here (tasks/manager.ts);
 * the last component of a local `data_files` glob is matched with it too (data/local-dataset.ts).
 * Hand-written for parity: glob libraries (minimatch, picomatch) stop `*` at `/` and add syntax of their own
 * (`**`, braces, extglobs) that fnmatch does not have.
 */
export function fnmatchToRegExp(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else if (char === '[') {
      const close = pattern.indexOf(']', index + 2);
      if (close === -1) {
        source += '\\[';
        continue;
      }
      let body = pattern.slice(index + 1, close);
      const negated = body.startsWith('!');
      if (negated) body = body.slice(1);
      source += `[${negated ? '^' : ''}${body.replace(/\\/g, '\\\\').replace(/\^/g, '\\^')}]`;
      index = close;
    } else source += char.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}

export function isGlob(text: string): boolean {
  return /[*?[]/.test(text);
}

export function fnmatch(name: string, pattern: string): boolean {
  return fnmatchToRegExp(pattern).test(name);
}
