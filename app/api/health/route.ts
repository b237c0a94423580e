import { healthReport } from '@/lib/server/health';

export const dynamic = 'force-dynamic';

export async function GET() {
  const report = await healthReport();
  // 200 while the process serves; `ok` says whether storage works (probes read the body).
  return Response.json(report, { status: 200, headers: { 'cache-control': 'no-store' } });
}
