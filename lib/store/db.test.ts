import { describe, expect, it } from 'vitest';
import { describeTarget } from './db';

describe('describeTarget', () => {
  it('names the Postgres host, port and database, never the user or password', () => {
    const shown = describeTarget('postgres://manuals:s3cret-pass@db.internal:6543/copilot?sslmode=require');
    expect(shown).toBe('db.internal:6543/copilot');
    expect(shown).not.toContain('s3cret');
    expect(shown).not.toContain('manuals');
    expect(describeTarget('postgres://u:p@localhost/x')).toBe('localhost:5432/x');
    expect(describeTarget('not a url with a p4ssword')).toBe('an unparsable DATABASE_URL');
  });
});
