// Redaction of secrets before anything is logged: Authorization headers, tokens and client secrets.

const SECRET_KEYS = /^(authorization|access_token|refresh_token|id_token|client_secret|password|token)$/i;

export function redactHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = SECRET_KEYS.test(k) || /cookie/i.test(k) ? '[redacted]' : v;
  return out;
}

export function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(value as Record<string, unknown>))
      out[k] = SECRET_KEYS.test(k) ? '[redacted]' : redactValue(x);
    return out;
  }
  return value;
}

/** A body as text for the debug log: JSON objects and form bodies have their secret fields replaced. */
export function redactBody(body: string | undefined, contentType = ''): string {
  if (!body) return '';
  if (contentType.includes('x-www-form-urlencoded') || /(^|&)client_secret=/.test(body)) {
    const form = new URLSearchParams(body);
    for (const k of [...form.keys()]) if (SECRET_KEYS.test(k)) form.set(k, '[redacted]');
    return form.toString();
  }
  try {
    return JSON.stringify(redactValue(JSON.parse(body)));
  } catch {
    return body.replace(/("?(?:access_token|client_secret)"?\s*[:=]\s*"?)[^"&\s]+/gi, '$1[redacted]');
  }
}
