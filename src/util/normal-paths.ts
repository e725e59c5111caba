/**
 * Path arithmetic on normal absolute POSIX paths (`/`-separated, no empty, `.` or `..` segment, no
 * trailing separator), by segments. Node's `path.resolve` and `path.relative` normalize both sides
 * character by character in JavaScript on every call; a cold `assay ls tasks` over lm-eval's tree makes
 * about a thousand such calls (includes named `../_template_yaml`, each folder's form relative to the
 * current one), at interpreter speed. Each function answers undefined when a path is not normal (or the
 * platform's separator is not `/`), and the caller asks `path` then; tests hold them to `path`'s answers.
 */
import path from 'node:path';

/** The segments of a normal absolute path (none for `/`), or undefined when it is not one. */
function segmentsOf(absolute: string): string[] | undefined {
  if (path.sep !== '/' || !absolute.startsWith('/')) return undefined;
  if (absolute === '/') return [];
  const segments = absolute.slice(1).split('/');
  for (const segment of segments) if (segment === '' || segment === '.' || segment === '..') return undefined;
  return segments;
}

/**
 * `relative` resolved against the folder `folder` (normal and absolute), as `path.resolve(folder,
 * relative)` resolves it; undefined when `folder` is not normal or `relative` is absolute.
 */
export function resolveNormal(folder: string, relative: string): string | undefined {
  const segments = segmentsOf(folder);
  if (segments === undefined || relative.startsWith('/')) return undefined;
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/** `to` relative to `from` (both normal and absolute), as `path.relative` gives it; undefined otherwise. */
export function relativeNormal(from: string, to: string): string | undefined {
  const base = segmentsOf(from);
  const target = segmentsOf(to);
  if (base === undefined || target === undefined) return undefined;
  let common = 0;
  while (common < base.length && common < target.length && base[common] === target[common]) common++;
  const up: string[] = new Array(base.length - common).fill('..');
  return [...up, ...target.slice(common)].join('/');
}
