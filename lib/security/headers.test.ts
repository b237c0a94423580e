import { describe, expect, it } from 'vitest';
import { newNonce } from './csp-proxy';
import { contentSecurityPolicy, securityHeaders } from './headers.mjs';

const directive = (csp: string, name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `));

describe('content security policy', () => {
  it('pages: only nonce-carrying scripts (and what they load), no inline or eval', () => {
    const csp = contentSecurityPolicy({ nonce: 'abc123' });
    expect(directive(csp, 'script-src')).toBe("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(directive(csp, 'style-src')).toBe("style-src 'self' 'nonce-abc123'");
    expect(directive(csp, 'style-src-attr')).toBe("style-src-attr 'unsafe-inline'");
    for (const d of [
      "default-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "img-src 'self' data: blob:",
    ]) {
      expect(csp.split('; ')).toContain(d);
    }
  });

  it('dev mode adds eval (React debugging) and inline styles (dev injects <style> without a nonce)', () => {
    const csp = contentSecurityPolicy({ nonce: 'abc123', dev: true });
    expect(directive(csp, 'script-src')).toBe("script-src 'self' 'nonce-abc123' 'strict-dynamic' 'unsafe-eval'");
    expect(directive(csp, 'style-src')).toBe("style-src 'self' 'unsafe-inline'");
  });

  it('the static fallback (non-page responses) allows no inline script at all', () => {
    const csp = securityHeaders().find((h) => h.key === 'Content-Security-Policy')!.value;
    expect(directive(csp, 'script-src')).toBe("script-src 'self'");
    expect(csp).not.toContain('nonce-');
  });

  it('nonces are 128-bit base64 and never repeat', () => {
    const nonces = new Set(Array.from({ length: 1000 }, newNonce));
    expect(nonces.size).toBe(1000);
    for (const n of nonces) expect(n).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});
