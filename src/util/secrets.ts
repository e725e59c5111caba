/**
 * Credentials never leave in a message: every error that quotes what a server answered, or names what
 * was sent, passes through `redact`, which replaces each secret (and its URL-encoded form) with `***`.
 * A caller passes every form it sends, a Basic-auth header's too: servers may echo what they were sent.
 *
 * A server's answer is quoted through `quoteAnswer`, which masks before it cuts: a secret that straddles
 * the cut would otherwise be shortened past recognition and its first characters printed.
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

/** A server's answer for a message: secrets masked, whitespace runs as one space, then at most `max` characters. */
export function quoteAnswer(text: string, secrets: readonly string[], max: number): string {
  const masked = redact(text, secrets).replace(/\s+/g, ' ').trim();
  return masked.length > max ? `${masked.slice(0, max)}…` : masked;
}

/** `https://user:pass@host/x` → `https://***@host/x`, for URLs quoted in messages. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1***@');
}
