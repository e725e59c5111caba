import { readdirSync, readFileSync } from 'node:fs';

/**
 * The last line of defence against a server left running: every managed server's process group is
 * registered here until it is stopped, and is killed when this process exits (a normal end, process.exit
 * from the CLI's Ctrl-C handler, an uncaught error) or receives SIGINT, SIGTERM or SIGHUP with no other
 * handler. An exit handler cannot wait on promises, so it signals the group, waits synchronously a few
 * seconds for it to go, then sends SIGKILL. Only SIGKILL of assay itself cannot be caught: the server's
 * pid and process group are written at the top of its log for that case.
 */
const groups = new Set<number>();
let installed = false;

/**
 * Whether any process of the group still runs. On Linux /proc says, and a zombie (killed, not yet reaped
 * by its parent) does not count; elsewhere a signal-0 probe does.
 */
function groupAlive(pgid: number): boolean {
  if (process.platform === 'linux') {
    try {
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        let stat: string;
        try {
          stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        } catch {
          continue;
        }
        // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses, so read after the last ')'.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
      }
      return false;
    } catch {
      // No /proc: fall through to the probe.
    }
  }
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is gone already.
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** SIGTERM to every registered group, up to `graceMs` for them to go, then SIGKILL. Synchronous. */
export function killAllSync(graceMs = 5000): void {
  if (groups.size === 0) return;
  for (const pgid of groups) signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && [...groups].some(groupAlive)) Atomics.wait(pause, 0, 0, 50);
  for (const pgid of groups) signalGroup(pgid, 'SIGKILL');
  groups.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  killAllSync();
  // Nobody else handles it: end as the default action would have, which our listener prevented.
  if (process.listenerCount(signal) === 1) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
}

export function guardGroup(pgid: number): void {
  groups.add(pgid);
  if (installed) return;
  installed = true;
  process.on('exit', () => killAllSync());
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
}

export function releaseGroup(pgid: number): void {
  groups.delete(pgid);
}

export function isGroupAlive(pgid: number): boolean {
  return groupAlive(pgid);
}
