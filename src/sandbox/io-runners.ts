/**
 * The in-sandbox side of the JSONL `code_exec` check for JavaScript; Python's is io_runner.py, the same
 * conversation with the host (io-tests.ts): the first stdin line carries a nonce and the answer's code;
 * the runner loads the code and writes `[nonce, "loaded"]` (or `[nonce, "error", message]`) to fd 4.
 * Then, one at a time, the host sends `{"nonce", "input"}`; the runner calls f and writes `[nonce, "ok",
 * <JSON text of the value>, <what f printed>]` or `[nonce, "error", message]`.
 *
 * These runners judge nothing, and their reports are only answers. The expected outputs never enter
 * the sandbox, and each input's nonce is sent only after the previous answer arrived, so nothing the
 * program writes ahead of time, or on its own, can count for a test (io-tests.ts).
 */

/** JavaScript: the answer is the body of a function, so `function f`, `const f` and `let f` all define f. */
export const JAVASCRIPT_IO_RUNNER = String.raw`'use strict';
const fs = require('node:fs');
const readline = require('node:readline');
const vm = require('node:vm');
const requests = readline.createInterface({ input: process.stdin, crlfDelay: Infinity })[Symbol.asyncIterator]();
const report = (record) => {
  try {
    fs.writeSync(4, JSON.stringify(record) + '\n');
  } catch {}
};
const message = (error) => String(error && error.name ? error.name + ': ' + error.message : error).slice(0, 200);
(async () => {
  const opening = JSON.parse((await requests.next()).value);
  let f;
  try {
    const load = vm.runInThisContext(
      '(function (exports, require, module, __filename, __dirname) {\n' + opening.code + '\n;return typeof f === "function" ? f : undefined;\n})',
      { filename: 'prediction.js' },
    );
    f = load(module.exports, require, module, 'prediction.js', '/tmp');
    if (typeof f !== 'function') throw new ReferenceError('the prediction defines no function f');
  } catch (error) {
    report([opening.nonce, 'error', message(error)]);
    process.exit(0);
  }
  report([opening.nonce, 'loaded']);
  const write = process.stdout.write;
  for (;;) {
    const next = await requests.next();
    if (next.done) break;
    const { nonce, input } = JSON.parse(next.value);
    const args = Array.isArray(input) ? input : [input];
    let printed = '';
    process.stdout.write = (chunk) => {
      printed += String(chunk);
      return true;
    };
    try {
      const got = await f(...args);
      const text = got === undefined ? 'null' : JSON.stringify(got);
      JSON.parse(text);
      process.stdout.write = write;
      report([nonce, 'ok', text, printed]);
    } catch (error) {
      process.stdout.write = write;
      report([nonce, 'error', message(error)]);
    }
  }
  process.exit(0);
})();
`;
