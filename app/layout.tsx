import type { Metadata, Viewport } from 'next';
import localFont from 'next/font/local';
import { headers } from 'next/headers';
import { AppChrome } from '@/components/layout/app-chrome';
import { AppHeader } from '@/components/layout/app-header';
import { DatabaseError } from '@/components/layout/database-error';
import { THEME_INIT_SCRIPT } from '@/components/ui/theme';
import { databaseProblem } from '@/lib/store/db';
import './globals.css';

// Fonts ship from npm (@fontsource-variable): nothing is fetched from Google at build or run time.
const inter = localFont({
  src: '../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2',
  variable: '--font-inter',
  display: 'swap',
});
const mono = localFont({
  src: '../node_modules/@fontsource-variable/jetbrains-mono/files/jetbrains-mono-latin-wght-normal.woff2',
  variable: '--font-mono-local',
  display: 'swap',
});

export const metadata: Metadata = {
  title: { default: 'Manual Copilot', template: '%s · Manual Copilot' },
  description: 'Ask your equipment manuals. Answers cite the exact page.',
};

export const viewport: Viewport = {
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#ffffff' },
    { media: '(prefers-color-scheme: dark)', color: '#09090b' },
  ],
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // The per-request CSP nonce from proxy.ts: without it the strict CSP blocks this inline script.
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  // Every page reads the database first: when it cannot, say why instead of an anonymous 500.
  const dbProblem = await databaseProblem();
  return (
    <html lang="en" className={`${inter.variable} ${mono.variable}`} suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_INIT_SCRIPT }} />
      </head>
      <body className="flex min-h-dvh flex-col font-sans">
        {/* First tab stop: jumps past the header to the page's own content. */}
        <a
          href="#content"
          data-testid="skip-link"
          className="sr-only rounded-md bg-brand-600 text-sm font-medium text-white shadow-lg focus:not-sr-only focus:fixed focus:left-3 focus:top-2 focus:z-50 focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        {/* Not on shared chats: app/share/layout.tsx is their own shell, with no navigation. */}
        {dbProblem ? null : (
          <AppChrome>
            <AppHeader />
          </AppChrome>
        )}
        {/* tabIndex -1: the skip link moves focus here, so the next Tab continues inside the page. */}
        <main id="content" tabIndex={-1} className="flex min-w-0 flex-1 flex-col focus:outline-none">
          {dbProblem ? <DatabaseError reason={dbProblem} /> : children}
        </main>
      </body>
    </html>
  );
}
