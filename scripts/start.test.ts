/**
 * `npm start` with an unusable DATA_DIR stops before building or serving, with a message
 * that names DATA_DIR, a non-zero exit, and nothing created. Root ignores directory permissions,
 * so the unwritable paths are paths below a regular file (ENOTDIR) or a regular file itself.
 * A disk with less free space than MC_MIN_FREE_MB (set far above any real disk here) stops it too.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-start-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Runs scripts/start.ts to its exit. No deadline of its own: a start that hangs fails on the test's timeout (and is killed after it). */
const running = new Set<AbortController>();
afterEach(() => {
  for (const run of running) run.abort();
  running.clear();
});

async function start(dataDir: string, env: Record<string, string> = {}) {
  const run = new AbortController();
  running.add(run);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/start.ts')], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '39217', MC_REBUILD: '', ...env },
    signal: run.signal,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const result = await new Promise<{ status: number | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ status: null, error }));
    child.once('close', (status) => resolve({ status }));
  });
  running.delete(run);
  return { ...result, stdout, stderr };
}

function listing(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true }).map(String).sort();
}

describe('scripts/start.ts with an unwritable DATA_DIR', () => {
  const file = path.join(scratch, 'not-a-dir');
  fs.writeFileSync(file, 'a regular file');

  const cases: Array<[string, string]> = [
    ['DATA_DIR is a regular file', file],
    ['DATA_DIR is below a regular file', path.join(file, 'data')],
  ];
  // Only where /etc/hostname is a regular file (as root, a missing one would be created as a directory).
  if (fs.statSync('/etc/hostname', { throwIfNoEntry: false })?.isFile()) cases.push(['DATA_DIR is deep below a system file', '/etc/hostname/mc-data/x']);

  it.each(cases)('%s: exits non-zero with a clear message and creates nothing', async (_label, dataDir) => {
    const before = listing(scratch);
    const r = await start(dataDir);
    expect(r.error).toBeUndefined();
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('DATA_DIR is not writable');
    expect(r.stderr).toContain(dataDir);
    expect(r.stderr).toMatch(/ENOTDIR|EEXIST/);
    // It stopped before the build and the server.
    expect(r.stdout).not.toMatch(/building|Serving on/i);
    expect(listing(scratch)).toEqual(before);
    expect(fs.readFileSync(file, 'utf8')).toBe('a regular file');
    expect(fs.existsSync('/etc/hostname/mc-data')).toBe(false);
  });
});

describe('scripts/start.ts with too little free disk space', () => {
  it('exits non-zero with the free and the required space, touching no data', async () => {
    const existing = path.join(scratch, 'existing-data');
    fs.mkdirSync(path.join(existing, 'manuals'), { recursive: true });
    fs.writeFileSync(path.join(existing, 'app.db'), 'database bytes');
    const fresh = path.join(scratch, 'fresh-data');
    for (const dataDir of [existing, fresh]) {
      const before = listing(scratch);
      const r = await start(dataDir, { MC_MIN_FREE_MB: '100000000' }); // 100 TB
      expect(r.error).toBeUndefined();
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`Not enough free disk space for DATA_DIR: ${dataDir} has `);
      expect(r.stderr).toMatch(/has \d+ MB free; at least 100000000 MB is needed \(MC_MIN_FREE_MB\)/);
      expect(r.stdout).not.toMatch(/building|Serving on/i);
      expect(listing(scratch)).toEqual(before);
    }
    expect(fs.existsSync(fresh)).toBe(false);
    expect(fs.readFileSync(path.join(existing, 'app.db'), 'utf8')).toBe('database bytes');
  }, 120_000); // two starts

  it('a value that is not a whole number of megabytes is refused with the variable named', async () => {
    const r = await start(path.join(scratch, 'never-created'), { MC_MIN_FREE_MB: '200MB' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('MC_MIN_FREE_MB must be a whole number of megabytes (0 = no check), got "200MB"');
    expect(r.stdout).not.toMatch(/building|Serving on/i);
    expect(fs.existsSync(path.join(scratch, 'never-created'))).toBe(false);
  });
});

describe('scripts/start.ts and another instance', () => {
  it('a DATA_DIR a live npm start holds: exits at once naming its pid and port, touching nothing', async () => {
    const dataDir = path.join(scratch, 'locked');
    fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
    // The running instance's upload in flight, and its lock (this test process stands in for it).
    fs.writeFileSync(path.join(dataDir, 'uploads', 'in-flight.part'), 'half an upload');
    const lock = JSON.stringify({ pid: process.pid, port: 4321, startTicks: null });
    fs.writeFileSync(path.join(dataDir, 'instance.lock'), lock);
    const before = listing(dataDir);
    const r = await start(dataDir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`Manual Copilot is already running on this DATA_DIR (${dataDir}): npm start, pid ${process.pid}, port 4321.`);
    expect(r.stdout).not.toMatch(/building|Serving on|Removed/i);
    expect(listing(dataDir)).toEqual(before);
    expect(fs.readFileSync(path.join(dataDir, 'uploads', 'in-flight.part'), 'utf8')).toBe('half an upload');
    expect(fs.readFileSync(path.join(dataDir, 'instance.lock'), 'utf8')).toBe(lock);
  });

  it('takes over a stale lock, makes the folder private, and stops with a message when another program holds the port', async () => {
    const dataDir = path.join(scratch, 'stale-lock');
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    const dead = spawnSync(process.execPath, ['-e', '']).pid; // exited: its pid holds nothing
    fs.writeFileSync(path.join(dataDir, 'instance.lock'), JSON.stringify({ pid: dead, port: 4321, startTicks: null }));
    const other = net.createServer();
    await new Promise<void>((resolve) => other.listen(39217, '127.0.0.1', resolve));
    try {
      const r = await start(dataDir);
      expect(r.status).toBe(1);
      // Past the lock (taken over), stopped at the port: no build, no server, no restart loop.
      expect(r.stderr).toContain('Port 39217 on 127.0.0.1 is already in use by another program. Stop it, or set PORT to a free port.');
      expect(r.stdout).not.toMatch(/building|Serving on/i);
      expect(r.stderr).not.toMatch(/restarting/);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
    // Its own lock went with it.
    expect(fs.existsSync(path.join(dataDir, 'instance.lock'))).toBe(false);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
  });
});
