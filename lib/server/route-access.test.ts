/**
 * One declared access class for every route, page and server action, so a new one
 * cannot ship open. The tables below are the declaration; the test fails when a file under app/
 * (route.ts, page.tsx) or an exported server action is missing from them, or when they list one
 * that no longer exists. Each entry is then checked:
 * - statically: the handler's own source calls its class's guard;
 * - dynamically, in sign-in mode (MC_AUTH=signin), the real handler with a real Request and no
 *   credentials (inside Next's request scope, lib/server/testing/request-scope.ts): every route
 *   answers 401 (or refuses the method); every page redirects to /signin.
 * The page-derived bytes (image, thumb, zoom) are checked further: the same answers locally
 * without the owner cookie, and `private` caching when the reader is signed in.
 */
import fs from 'node:fs';
import path from 'node:path';
import { cruise } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { encode } from 'next-auth/jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// Before any route module: it sets up Next's request storage (see testing/async-storage.ts).
import { inRequestScope } from './testing/request-scope';
import { authSecret } from '../auth/owner-cookie';
import { sessionClaimsFor } from '../auth/session-version';
import { ensurePageImage } from '../manuals/page-images';
import { manualDir, manualSourcePath } from '../ingest/paths';
import { stopPdfWorkers } from '../pdf-worker/pool';
import { generateSampleManual } from '../sample';
import { closeDb } from '../store/db';
import { createManual, updateManual } from '../store/manuals';
import { createUser, getUser } from '../store/users';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * - public: anyone (health, sign-in, Auth.js's own callbacks);
 * - reader: where sign-in is required the signed-in, locally whoever reaches the app (pages,
 *   page images, manual lists, the citation preview);
 * - actor: an existing identity (owner cookie or sign-in), then ownership and role in the service;
 * - admin: administrators only;
 * - api-key: a Bearer API key (MCP, /api/v1).
 */
type Access = 'public' | 'reader' | 'actor' | 'admin' | 'api-key';

/** What the handler's own source must call, per class. */
const GUARDS: Record<Exclude<Access, 'public'>, RegExp> = {
  reader: /\b(requireReader|readerOrSignIn|pageImageResponse|pageZoomResponse)\(/,
  actor: /\b(requireActor|currentOwnerId|ensureOwnerId|keyCreator|ensureKeyOwner)\(/,
  admin: /\brequireAdmin\(/,
  'api-key': /\b(handleMcpRequest|handleAsk)\(/,
};

type Probe = {
  access: Access;
  /** The request sent without credentials in sign-in mode (URL path, body). */
  url?: string;
  body?: unknown;
  /** The refusal expected instead of 401 (a method the endpoint does not serve). */
  refuses?: number;
  /** Why this one is not called (only public endpoints may say so). */
  notCalled?: string;
};

/** Every route handler: file under app/ → method → class. */
const ROUTES: Record<string, Record<string, Probe>> = {
  'app/api/auth/[...nextauth]/route.ts': {
    GET: { access: 'public', notCalled: "Auth.js's own sign-in endpoints" },
    POST: { access: 'public', notCalled: "Auth.js's own sign-in endpoints" },
  },
  'app/api/health/route.ts': { GET: { access: 'public' } },
  'app/favicon.ico/route.ts': { GET: { access: 'public', notCalled: 'a redirect to the app icon' } },
  'app/api/chat/route.ts': { POST: { access: 'actor', body: { sessionId: '00000000-0000-4000-8000-000000000000', question: 'What is the torque?' } } },
  'app/api/manuals/route.ts': { GET: { access: 'reader' }, POST: { access: 'actor', body: '%PDF-1.4' } },
  'app/api/manuals/[id]/route.ts': { PATCH: { access: 'actor', body: { title: 'x' } }, DELETE: { access: 'actor' } },
  'app/api/manuals/[id]/password/route.ts': { POST: { access: 'actor', body: { password: 'secret' } } },
  'app/api/users/route.ts': { GET: { access: 'admin' }, POST: { access: 'admin', body: { email: 'x@example.com', role: 'member', password: 'password1' } } },
  'app/api/users/[id]/route.ts': { PATCH: { access: 'admin', body: { role: 'admin' } }, DELETE: { access: 'admin' } },
  'app/api/mcp/route.ts': {
    POST: { access: 'api-key', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
    GET: { access: 'api-key', refuses: 405 },
    DELETE: { access: 'api-key', refuses: 405 },
  },
  'app/api/v1/ask/route.ts': { POST: { access: 'api-key', body: { question: 'What is the torque?' } } },
  'app/manuals/[id]/pages/[n]/image/route.ts': { GET: { access: 'reader' } },
  'app/manuals/[id]/pages/[n]/thumb/route.ts': { GET: { access: 'reader' } },
  'app/manuals/[id]/pages/[n]/zoom/route.ts': { GET: { access: 'reader', url: '?scale=3' } },
};

/** Every page: file under app/ → class (pages without a session redirect to /signin). */
const PAGES: Record<string, Access> = {
  'app/page.tsx': 'reader',
  'app/chat/[id]/page.tsx': 'reader',
  'app/manuals/page.tsx': 'reader',
  'app/manuals/[id]/page.tsx': 'reader',
  'app/settings/page.tsx': 'reader',
  'app/share/[shareId]/page.tsx': 'reader',
  'app/signin/page.tsx': 'public',
};

/** Every server action: file#export → class. Checked statically (their inputs are validated first). */
const ACTIONS: Record<string, Access> = {
  'actions/api-keys.ts#createKey': 'actor',
  'actions/api-keys.ts#revokeApiKeyAction': 'actor',
  'actions/chat.ts#cancelTurn': 'actor',
  'actions/chat.ts#rateTurn': 'actor',
  'actions/chat.ts#getPagePreview': 'reader',
  'actions/manuals.ts#findInManualAction': 'reader',
  'actions/sessions.ts#renameSession': 'actor',
  'actions/sessions.ts#deleteSession': 'actor',
  'actions/sessions.ts#findSession': 'actor',
  'actions/sessions.ts#clearDevice': 'actor',
  'actions/share.ts#shareSession': 'actor',
  'actions/share.ts#updateShare': 'actor',
  'actions/share.ts#revokeShare': 'actor',
  'actions/share.ts#forkShare': 'actor',
  'app/signin/actions.ts#signInWithPassword': 'public',
  'app/signin/actions.ts#signInWithOidc': 'public',
  'app/signin/actions.ts#signOutAction': 'public',
};

function walk(dir: string, match: (name: string) => boolean): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return walk(rel, match);
    return match(e.name) ? [rel] : [];
  });
}

const source = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The source of one exported function or const (up to the next top-level export). */
function exportedBody(file: string, name: string): string {
  const src = source(file);
  const start = src.search(new RegExp(`^export (?:default )?(?:async function|function|const) ${name}\\b`, 'm'));
  if (start < 0) return '';
  const next = src.slice(start + 1).search(/^export /m);
  return next < 0 ? src.slice(start) : src.slice(start, start + 1 + next);
}

/** Server actions: the exports of every 'use server' file. */
function serverActions(): string[] {
  const files = [
    ...walk('actions', (n) => n.endsWith('.ts') && !n.includes('.test.')),
    ...walk('app', (n) => n.endsWith('.ts') && !n.includes('.test.') && n !== 'route.ts'),
  ];
  return files
    .filter((f) => /^['"]use server['"]/m.test(source(f)))
    .flatMap((f) => [...source(f).matchAll(/^export (?:async function|function|const) (\w+)/gm)].map((m) => `${f}#${m[1]}`));
}

/** A URL for a route or page file: [id] and friends filled in. */
function urlOf(file: string, params: Record<string, string>): string {
  const route = file.replace(/^app/, '').replace(/\/(route\.ts|page\.tsx)$/, '');
  return `http://localhost${route.replace(/\[(?:\.\.\.)?(\w+)\]/g, (_, k: string) => params[k] ?? 'x')}` || 'http://localhost/';
}

const SAMPLE = 'route-access-manual';
const PARAMS = { id: SAMPLE, n: '1', shareId: 'AAAAAAAAAAAAAAAAAAAAAA', nextauth: 'session' };

async function call(file: string, method: string, init: { url?: string; body?: unknown; cookie?: string } = {}): Promise<Response> {
  const mod = (await import(/* @vite-ignore */ path.join(ROOT, file))) as Record<string, (req: Request, ctx: unknown) => Promise<Response>>;
  const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = typeof init.body === 'string' ? 'application/pdf' : 'application/json';
  if (init.cookie) headers.cookie = init.cookie;
  const request = new Request(urlOf(file, PARAMS) + (init.url ?? ''), { method, headers, body });
  const params = Object.fromEntries(Object.entries(PARAMS).map(([k, v]) => [k, k === 'nextauth' ? [v] : v]));
  return inRequestScope(request, () => mod[method](request, { params: Promise.resolve(params) }));
}

/** Auth.js's session cookie for a user, as its sign-in would set it (http, so no __Secure- prefix). */
async function sessionCookie(userId: string): Promise<string> {
  const salt = 'authjs.session-token';
  const user = await getUser(userId);
  return `${salt}=${await encode({ token: sessionClaimsFor(user!), secret: authSecret(), salt })}`;
}

const PAGE_BYTES = {
  image: 'app/manuals/[id]/pages/[n]/image/route.ts',
  thumb: 'app/manuals/[id]/pages/[n]/thumb/route.ts',
  zoom: 'app/manuals/[id]/pages/[n]/zoom/route.ts',
} as const;

beforeAll(async () => {
  const { pdf } = await generateSampleManual();
  await createManual({ id: SAMPLE, title: 'Sample', fileName: 'sample.pdf', sha256: SAMPLE.padEnd(64, '0'), sizeBytes: pdf.length });
  await updateManual(SAMPLE, { status: 'ready', pageCount: 10 });
  fs.mkdirSync(manualDir(SAMPLE), { recursive: true });
  fs.writeFileSync(manualSourcePath(SAMPLE), pdf);
  // On disk before any request: the image route answers a placeholder for a page it must wait for.
  expect(await ensurePageImage(SAMPLE, 1, 'image')).not.toBeNull();
}, 120_000);

afterAll(async () => {
  delete process.env.MC_AUTH;
  stopPdfWorkers();
  await closeDb();
});

describe('every route, page and action declares its access class', () => {
  it('the tables list exactly the route handlers, pages and server actions there are', () => {
    expect(walk('app', (n) => n === 'route.ts').sort()).toEqual(Object.keys(ROUTES).sort());
    expect(walk('app', (n) => n === 'page.tsx').sort()).toEqual(Object.keys(PAGES).sort());
    expect(serverActions().sort()).toEqual(Object.keys(ACTIONS).sort());
  });

  it('each route exports exactly the methods declared', async () => {
    for (const [file, methods] of Object.entries(ROUTES)) {
      const exported = [...source(file).matchAll(/^export (?:async function|const(?: \{)?) ?([A-Z]+(?:, [A-Z]+)*)\b/gm)].flatMap((m) => m[1].split(', '));
      expect(exported.sort(), file).toEqual(Object.keys(methods).sort());
    }
  });

  it("each handler calls its class's guard in its own source", () => {
    const check = (where: string, body: string, access: Access) => {
      if (access === 'public') return;
      expect(body, `${where} (${access}) must call ${GUARDS[access]}`).toMatch(GUARDS[access]);
    };
    for (const [file, methods] of Object.entries(ROUTES)) {
      for (const [method, { access }] of Object.entries(methods)) check(`${file} ${method}`, exportedBody(file, method), access);
    }
    for (const [file, access] of Object.entries(PAGES)) check(file, source(file), access);
    for (const [entry, access] of Object.entries(ACTIONS)) {
      const [file, name] = entry.split('#');
      check(entry, exportedBody(file, name), access);
    }
  });
});

describe('in sign-in mode, without a session', () => {
  beforeAll(() => {
    process.env.MC_AUTH = 'signin';
  });
  afterAll(() => {
    delete process.env.MC_AUTH;
  });

  for (const [file, methods] of Object.entries(ROUTES)) {
    for (const [method, probe] of Object.entries(methods)) {
      if (probe.notCalled) continue;
      const expected = probe.access === 'public' ? 200 : (probe.refuses ?? 401);
      it(`${method} ${file}: ${expected}`, async () => {
        const res = await call(file, method, probe);
        expect(res.status).toBe(expected);
      });
    }
  }

  it('only public endpoints skip the call', () => {
    for (const methods of Object.values(ROUTES)) for (const p of Object.values(methods)) if (p.notCalled) expect(p.access).toBe('public');
  });

  for (const [file, access] of Object.entries(PAGES)) {
    if (access === 'public') continue;
    it(`${file}: redirects to /signin`, async () => {
      const mod = (await import(/* @vite-ignore */ path.join(ROOT, file))) as { default: (props: unknown) => Promise<unknown> };
      const url = urlOf(file, PARAMS);
      const props = { params: Promise.resolve(PARAMS), searchParams: Promise.resolve({}) };
      const err = await inRequestScope(new Request(url), () => mod.default(props)).then(
        () => null,
        (e: unknown) => e,
      );
      // next/navigation's redirect(): NEXT_REDIRECT;<type>;<url>;<status>;
      expect((err as { digest?: string } | null)?.digest).toMatch(/^NEXT_REDIRECT;\w+;\/signin\?callbackUrl=/);
    });
  }

  it('the citation preview (a server action) refuses too', async () => {
    const { getPagePreview } = await import('@/actions/chat');
    const got = await inRequestScope(new Request('http://localhost/'), () => getPagePreview({ manualId: SAMPLE, page: 1 }));
    expect(got).toMatchObject({ ok: false, code: 'unauthorized:chat' });
  });

  it('find in a manual (a server action) refuses too', async () => {
    const { findInManualAction } = await import('@/actions/manuals');
    const got = await inRequestScope(new Request('http://localhost/'), () => findInManualAction({ manualId: SAMPLE, query: 'bar' }));
    expect(got).toMatchObject({ ok: false, code: 'unauthorized:chat' });
  });
});

describe('page-derived bytes: image, thumb and zoom share one access rule', () => {
  it('signed in: 200 with private, immutable caching; zoom rendered in a PDF worker at its scale', async () => {
    process.env.MC_AUTH = 'signin';
    try {
      const member = await createUser({ email: 'reader@example.com', role: 'member' });
      const cookie = await sessionCookie(member.id);
      for (const [kind, file] of Object.entries(PAGE_BYTES)) {
        const res = await call(file, 'GET', { url: kind === 'zoom' ? '?scale=3' : '', cookie });
        expect(res.status, kind).toBe(200);
        expect(res.headers.get('cache-control'), kind).toBe('private, max-age=31536000, immutable');
        expect(res.headers.get('x-page-image'), kind).toBeNull();
      }
      const zoom = await call(PAGE_BYTES.zoom, 'GET', { url: '?scale=3', cookie });
      const png = new Uint8Array(await zoom.arrayBuffer());
      // PNG width (big-endian at byte 16): the sample's A4/Letter page at 3 px per point.
      const width = new DataView(png.buffer).getUint32(16);
      expect(width).toBeGreaterThan(1700);
      // A scale not on offer is not rendered at all.
      expect((await call(PAGE_BYTES.zoom, 'GET', { url: '?scale=20', cookie })).status).toBe(404);
    } finally {
      delete process.env.MC_AUTH;
    }
  }, 120_000);

  it('never load pdf.js in the web server: their runtime imports reach neither lib/ingest/pdf.ts nor pdfjs-dist', async () => {
    // Type-only imports are erased at run time, so they are left out (tsPreCompilationDeps: false).
    const result = await cruise(
      ['app/manuals/[id]/pages'],
      {
        baseDir: ROOT,
        doNotFollow: { path: 'node_modules' },
        tsPreCompilationDeps: false,
        tsConfig: { fileName: 'tsconfig.json' },
        enhancedResolveOptions: {
          exportsFields: ['exports'],
          conditionNames: ['import', 'require', 'node', 'default'],
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
        },
      },
      undefined,
      { tsConfig: extractTSConfig(path.join(ROOT, 'tsconfig.json')) },
    );
    const modules = (typeof result.output === 'string' ? [] : result.output.modules).map((m) => m.source);
    expect(modules).toContain('lib/manuals/page-zoom.ts');
    expect(modules.filter((m) => /lib\/ingest\/(pdf|pdfjs)\.ts$|pdfjs-dist/.test(m))).toEqual([]);
  }, 60_000);

  it('locally without the owner cookie: zoom answers as image and thumb do', async () => {
    const statuses = [];
    for (const [kind, file] of Object.entries(PAGE_BYTES)) {
      const res = await call(file, 'GET', { url: kind === 'zoom' ? '?scale=3' : '' });
      statuses.push(res.status);
      expect(res.headers.get('cache-control'), kind).toMatch(/^private\b/);
    }
    expect(statuses).toEqual([200, 200, 200]);
  }, 120_000);
});
