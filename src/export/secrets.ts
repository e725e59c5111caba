/**
 * Credentials never leave in a message: every error an export raises passes through `redact`, which
 * replaces each secret (and its URL-encoded form) with `***`. A target passes every form it sends,
 * a Basic-auth header's too: errors quote the server's answer, and a server may echo what it was sent.
 */
export function secretForms(secret: string): string[] {
  const forms = new Set([secret, encodeURIComponent(secret)]);
  return [...forms].filter((form) => form.length >= 4);
}

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  const forms = secrets.flatMap(secretForms).sort((a, b) => b.length - a.length);
  for (const form of forms) out = out.split(form).join('***');
  return out;
}

/** `https://user:pass@host/x` → `https://***@host/x`, for URLs quoted in messages. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1***@');
}
