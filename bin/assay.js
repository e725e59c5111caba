#!/usr/bin/env node
// dist/ is built, not committed: a checkout run without `npm run build` gets one line saying so, not
// Node's ERR_MODULE_NOT_FOUND stack.
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/bundle/main.js', import.meta.url);
import(entry.href).then(
  (cli) => cli.main(process.argv.slice(2)),
  (error) => {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    const missing = String(error.message).includes(fileURLToPath(entry))
      ? `${fileURLToPath(new URL('../dist/', import.meta.url))} is not built`
      : `a module is missing (${String(error.message).split('\n')[0]})`;
    process.stderr.write(
      `assay: error: ${missing}\nassay: hint: in a checkout of assay, run npm ci and then npm run build (the published package ships dist/)\n`,
    );
    process.exitCode = 2;
  },
);
