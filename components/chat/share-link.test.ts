import { describe, expect, it } from 'vitest';
import { onlyThisComputer, shareLink } from './share-link';

describe('share links', () => {
  it('use PUBLIC_URL when it is set, else the address the browser used', () => {
    expect(shareLink('https://manuals.example.com', 'http://127.0.0.1:3000', 'abc')).toBe('https://manuals.example.com/share/abc');
    expect(shareLink('https://manuals.example.com/', 'http://127.0.0.1:3000', 'abc')).toBe('https://manuals.example.com/share/abc');
    expect(shareLink(null, 'http://127.0.0.1:3000', 'abc')).toBe('http://127.0.0.1:3000/share/abc');
  });

  it('a link on a loopback address opens on this computer only', () => {
    for (const link of ['http://127.0.0.1:3000/share/a', 'http://localhost:3000/share/a', 'http://[::1]:3000/share/a', 'http://127.1.2.3/share/a']) {
      expect(onlyThisComputer(link), link).toBe(true);
    }
    for (const link of ['http://192.168.1.20:3000/share/a', 'https://manuals.example.com/share/a', 'http://workshop-pc:3000/share/a', '']) {
      expect(onlyThisComputer(link), link).toBe(false);
    }
  });
});
