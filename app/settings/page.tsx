import type { Metadata } from 'next';
import { ApiKeys } from '@/components/settings/api-keys';
import { PageFrame } from '@/components/ui/page-frame';
import { listKeys } from '@/lib/api/keys';
import { currentKeyOwner, keyCreationRefusal } from '@/lib/api/key-owner';
import { currentActor, readerOrSignIn } from '@/lib/auth/access';
import { listAudit } from '@/lib/store/api-keys';

export const metadata: Metadata = { title: 'Settings' };
export const dynamic = 'force-dynamic';

export default async function SettingsPage() {
  await readerOrSignIn('/settings');
  const owner = await currentKeyOwner();
  const [keys, audit] = owner ? await Promise.all([listKeys(owner), listAudit(owner, 20)]) : [[], []];
  const cannotCreate = keyCreationRefusal((await currentActor())?.role);
  return (
    <PageFrame
      title="Settings"
      description="API keys let an assistant (MCP) or a script (POST /api/v1/ask) use your manuals. See the README for setup."
      width="max-w-3xl"
    >
      <ApiKeys
        initial={keys}
        cannotCreate={cannotCreate}
        audit={audit.map((a) => ({ id: a.id, keyId: a.keyId, tool: a.tool, at: a.at.getTime(), ms: a.ms, outcome: a.outcome }))}
      />
    </PageFrame>
  );
}
