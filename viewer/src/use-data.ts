import { useEffect, useState } from 'react';

export type Loaded<T> =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'ready'; value: T };

/** Loads once per `key`; a stale answer for an old key is dropped. */
export function useData<T>(key: string, load: () => Promise<T>): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names everything `load` depends on
  useEffect(() => {
    let live = true;
    setLoaded({ state: 'loading' });
    load().then(
      (value) => live && setLoaded({ state: 'ready', value }),
      (error: Error) => live && setLoaded({ state: 'error', message: error.message }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return loaded;
}
