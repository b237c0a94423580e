const isDev = process.env.NODE_ENV === 'development';

// Everything is served from this origin: no third-party scripts, fonts, images or connections.
// Next's App Router inlines its bootstrap scripts, hence 'unsafe-inline' for scripts (a nonce would
// force every page to render dynamically); dev mode also needs eval for fast refresh.
const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${isDev ? " 'unsafe-eval'" : ''}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const securityHeaders = [
  { key: 'Content-Security-Policy', value: contentSecurityPolicy },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'same-origin' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native or worker-spawning packages must stay outside the server bundle (DESIGN §7).
  serverExternalPackages: [
    '@napi-rs/canvas',
    'pdfjs-dist',
    '@lancedb/lancedb',
    'apache-arrow',
    'onnxruntime-node',
    '@huggingface/transformers',
    'sharp',
    'tesseract.js',
    '@libsql/client',
    'libsql',
    'weaviate-client',
  ],
  // `npm test` runs `tsc --noEmit` over the whole tree; checking again in every build only slows
  // `npm start` on a fresh machine.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  reactStrictMode: true,
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }];
  },
};

export default nextConfig;
