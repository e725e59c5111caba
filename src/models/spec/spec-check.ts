import { AssayError } from '../../errors.js';
import type { AnyVersionBackend } from './adapt-v1.js';
import { CAPABILITY_METHODS, type OptionalCapability } from './capabilities.js';
import { BACKEND_SPECIFICATION_VERSION, CAPABILITY_NAMES } from './model-backend.js';

/** The spec versions a backend may implement: this assay's, and v1 (adapted to it, adapt-v1.ts). */
const ACCEPTED_VERSIONS: readonly string[] = [BACKEND_SPECIFICATION_VERSION, 'v1'];

/**
 * Checks that a value is a backend of a spec version this assay accepts (v2, or v1) before the harness
 * relies on it: a third-party backend (plain JavaScript, or written for another version) fails here,
 * naming what is wrong, instead of with a TypeError in the middle of a run. The registry checks every
 * backend it creates, `simpleEvaluate` the one it is given; both then adapt a v1 backend (`toCurrentSpec`).
 */
export function checkBackendSpec(backend: unknown, label: string): asserts backend is AnyVersionBackend {
  const fail = (problem: string): never => {
    throw new AssayError('backend_error', `backend ${label} ${problem}`);
  };
  if (backend === null || typeof backend !== 'object')
    fail(`is ${backend === null ? 'null' : typeof backend}, not a ModelBackend object`);
  const value = backend as Record<string, unknown>;
  if (
    typeof value.specificationVersion !== 'string' ||
    !ACCEPTED_VERSIONS.includes(value.specificationVersion)
  ) {
    fail(
      `implements backend spec ${value.specificationVersion === undefined ? '(none: no specificationVersion)' : JSON.stringify(value.specificationVersion)}; this assay implements specificationVersion '${BACKEND_SPECIFICATION_VERSION}' and accepts 'v1'`,
    );
  }
  if (typeof value.name !== 'string' || value.name === '') fail('has no name (a non-empty string)');
  const capabilities = value.capabilities as Record<string, unknown> | undefined;
  if (capabilities === null || typeof capabilities !== 'object') fail('declares no capabilities object');
  const undeclared = CAPABILITY_NAMES.filter((name) => typeof capabilities?.[name] !== 'boolean');
  if (undeclared.length) {
    fail(`does not declare capabilities ${undeclared.join(', ')} (each true or false)`);
  }
  const missing = ['loglikelihood', 'loglikelihoodRolling', 'generate', 'info'].filter(
    (method) => typeof value[method] !== 'function',
  );
  for (const capability of Object.keys(CAPABILITY_METHODS) as OptionalCapability[]) {
    if (capabilities?.[capability] !== true) continue;
    for (const method of CAPABILITY_METHODS[capability])
      if (typeof value[method] !== 'function') missing.push(`${method} (capability ${capability})`);
  }
  if (missing.length) fail(`lacks method${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`);
  const concurrency = value.concurrency;
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && (concurrency as number) >= 1))
    fail(`declares concurrency ${String(concurrency)}; it must be a positive integer when set`);
}
