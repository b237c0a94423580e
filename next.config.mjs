import { securityHeaders } from './lib/security/headers.mjs';

const isDev = process.env.NODE_ENV === 'development';

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native or worker-spawning packages must stay outside the server bundle (see README, Requirements).
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
    // Every response; pages get a per-request nonce CSP from proxy.ts instead of this one.
    return [{ source: '/:path*', headers: securityHeaders({ dev: isDev }) }];
  },
};

export default nextConfig;
