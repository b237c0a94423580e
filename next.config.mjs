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
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
