import { realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * The real path of `relative` under `root`, or null when it would leave `root`: `..` segments, absolute
 * paths, encoded separators, NUL bytes and symlinks pointing outside all end here. The check runs on the
 * real paths, after symlinks are resolved, so a link inside the root cannot be used to escape it.
 */
export async function resolveInside(root: string, relative: string): Promise<string | null> {
  if (relative.includes('\0')) return null;
  const realRoot = await realpath(root).catch(() => null);
  if (!realRoot) return null;
  const candidate = path.resolve(realRoot, `.${path.sep}${relative}`);
  if (!isInside(realRoot, candidate)) return null;
  const real = await realpath(candidate).catch(() => null);
  if (!real || !isInside(realRoot, real)) return null;
  return real;
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return (
    relative === '' ||
    (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative))
  );
}
