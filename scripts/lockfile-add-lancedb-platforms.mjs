import fs from 'node:fs';
const f = process.argv[2];
const lock = JSON.parse(fs.readFileSync(f, 'utf8'));
const base = lock.packages['node_modules/@lancedb/lancedb-linux-x64-gnu'];
const plat = {
  'darwin-arm64': { os: ['darwin'], cpu: ['arm64'] },
  'linux-arm64-gnu': { os: ['linux'], cpu: ['arm64'], libc: ['glibc'] },
  'linux-arm64-musl': { os: ['linux'], cpu: ['arm64'], libc: ['musl'] },
  'win32-arm64-msvc': { os: ['win32'], cpu: ['arm64'] },
  'win32-x64-msvc': { os: ['win32'], cpu: ['x64'] },
};
const out = {};
for (const [k, v] of Object.entries(lock.packages)) {
  out[k] = v;
  if (k === 'node_modules/@lancedb/lancedb-linux-x64-gnu') {
    for (const [p, o] of Object.entries(plat)) {
      const key = `node_modules/@lancedb/lancedb-${p}`;
      if (lock.packages[key]) continue;
      out[key] = { version: base.version, cpu: o.cpu, ...(o.libc ? { libc: o.libc } : {}), license: base.license, optional: true, os: o.os, engines: base.engines };
    }
  }
}
lock.packages = Object.fromEntries(Object.entries(out).sort(([a], [b]) => a === '' ? -1 : b === '' ? 1 : 0));
fs.writeFileSync(f, JSON.stringify(lock, null, 2) + '\n');
