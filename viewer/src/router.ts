import { useEffect, useState } from 'react';

export interface Route {
  path: string[];
  params: URLSearchParams;
}

function parse(hash: string): Route {
  const text = hash.replace(/^#/, '') || '/';
  const [pathPart, queryPart = ''] = text.split('?');
  return {
    path: pathPart.split('/').filter(Boolean).map(decodeURIComponent),
    params: new URLSearchParams(queryPart),
  };
}

/** Hash routing: works from the server and from an exported copy opened as a file. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parse(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parse(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

export function href(path: string[], params?: Record<string, string>): string {
  const query = params ? `?${new URLSearchParams(params).toString()}` : '';
  return `#/${path.map(encodeURIComponent).join('/')}${query}`;
}
