import { AssayError } from '../../errors.js';
import { CAPABILITY_METHODS, type OptionalCapability } from './capabilities.js';
import { BACKEND_SPECIFICATION_VERSION, CAPABILITY_NAMES, type ModelBackend } from './model-backend.js';

/**
 * Checks that a value is a backend of this spec version before the harness relies on it: a third-party
 * backend (plain JavaScript, or written for another version) fails here, naming what is wrong, instead of
 * with a TypeError in the middle of a run. The registry checks every backend it creates; `simpleEvaluate`
 * checks the one it is given.
 */
export function checkBackendSpec(backend: unknown, label: string): asserts backend is ModelBackend {
  const fail = (problem: string): never => {
    throw new AssayError('backend_error', `backend ${label} ${problem}`);
  };
  if (backend === null || typeof backend !== 'object')
    fail(`is ${backend === null ? 'null' : typeof backend}, not a ModelBackend object`);
  const value = backend as Record<string, unknown>;
  if (value.specificationVersion !== BACKEND_SPECIFICATION_VERSION) {
    fail(
      `implements backend spec ${value.specificationVersion === undefined ? '(none: no specificationVersion)' : JSON.stringify(value.specificationVersion)}; this assay implements specificationVersion '${BACKEND_SPECIFICATION_VERSION}'`,
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
