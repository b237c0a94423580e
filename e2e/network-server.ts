/**
 * A second server of the same build on 0.0.0.0, for specs about sign-in mode (HOST not loopback
 * → sign-in required): its own port and scratch DATA_DIR, started before the spec's tests and
 * stopped (its data removed) after them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '..');

export interface NetworkServer {
  base: string;
  stop(): Promise<void>;
}

/** Starts `next start` on 0.0.0.0:`port` with an admin password, and waits until health answers. */
export async function startNetworkServer(port: number, adminPassword: string, tag: string): Promise<NetworkServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `mc-e2e-${tag}-`));
  const base = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'start', '-p', String(port), '-H', '0.0.0.0'], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '0.0.0.0',
      PORT: String(port),
      DATA_DIR: dataDir,
      MC_ADMIN_PASSWORD: adminPassword,
      MC_NO_SAMPLE: '1',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: 'ignore',
  });
  await expect
    .poll(
      () =>
        fetch(`${base}/api/health`).then(
          (r) => r.ok,
          () => false,
        ),
      { timeout: 120_000, message: 'the network-mode server did not start' },
    )
    .toBe(true);
  return {
    base,
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((r) => server.once('exit', r));
        server.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
