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
};

export default nextConfig;
