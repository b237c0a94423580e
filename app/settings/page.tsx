import type { Metadata } from 'next';
import { ApiKeys } from '@/components/settings/api-keys';
import { listKeys } from '@/lib/api/keys';
import { currentKeyOwner, keyCreationRefusal } from '@/lib/api/key-owner';
import { currentActor } from '@/lib/auth/access';
import { listAudit } from '@/lib/store/api-keys';

export const metadata: Metadata = { title: 'Settings' };
export const dynamic = 'force-dynamic';

export default async function SettingsPage() {
  const owner = await currentKeyOwner();
  const [keys, audit] = owner ? await Promise.all([listKeys(owner), listAudit(owner, 20)]) : [[], []];
  const cannotCreate = keyCreationRefusal((await currentActor())?.role);
  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 px-4 py-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight" data-testid="page-title">
          Settings
        </h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">API keys let an assistant (MCP) or a script (POST /api/v1/ask) use your manuals. See the README for setup.</p>
      </div>
      <ApiKeys
        initial={keys}
        cannotCreate={cannotCreate}
        audit={audit.map((a) => ({ id: a.id, keyId: a.keyId, tool: a.tool, at: a.at.getTime(), ms: a.ms, outcome: a.outcome }))}
      />
    </div>
  );
}
