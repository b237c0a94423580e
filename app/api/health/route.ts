import { healthReport } from '@/lib/server/health';

export const dynamic = 'force-dynamic';

export async function GET() {
  const report = await healthReport();
  // 503 when a storage backend fails (a corrupt database, an unwritable DATA_DIR): load balancers
  // and `npm start`'s callers see it without reading the body, which says which one and why.
  return Response.json(report, { status: report.ok ? 200 : 503, headers: { 'cache-control': 'no-store' } });
}
