/**
 * undici's connection `Pool`, loaded from its own module instead of the package's index. The index
 * (`require('undici')`) compiles the whole library, fetch, WebSocket, caches, mocks and all: about 0.5 s of
 * CPU on this project's 2-core machine, paid by every served run before its first request, against about
 * 0.2 s for the pool, the request API and what they need. The package declares no `exports` map and is pinned to one
 * version in package.json; undici-pool.test.ts holds this module to the index's own `Pool` (the same
 * class object), so an upgrade that moves the file fails that test, not a run.
 */
import { createRequire } from 'node:module';
import type { Pool as UndiciPool } from 'undici';

const require = createRequire(import.meta.url);

export const Pool = require('undici/lib/dispatcher/pool.js') as typeof UndiciPool;

// The index gives every dispatcher its request API (`pool.request` …) by assigning lib/api's functions to
// Dispatcher's prototype; the same assignment here, with the same functions, so the order in which this
// module and the index load does not matter.
Object.assign(
  (require('undici/lib/dispatcher/dispatcher.js') as { prototype: object }).prototype,
  require('undici/lib/api/index.js') as object,
);
export type Pool = UndiciPool;
