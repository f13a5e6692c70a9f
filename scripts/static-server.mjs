// A small static file server on a free loopback port, for measuring the page the way a real
// server would serve it: HTTP/1.1 keep-alive (one connection carries many requests) and the right
// MIME types (application/wasm, so wasm-bindgen's init compiles while the bytes stream in).
// Python's http.server answers HTTP/1.0, one connection per file; with 19 files that costs
// Chromium several connection waves. scripts/serve.sh serves the page with this; e2e/bench.mjs
// measures time to interactive with both.
//
//   node scripts/static-server.mjs ROOT PORT    # serve ROOT on 127.0.0.1:PORT until killed
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** Serves `root` on 127.0.0.1 (port 0: chosen by the kernel); resolves to { url, port, stop() }. */
export function startNodeServer(root, port = 0) {
  root = path.resolve(root);
  const server = createServer(async (req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = path.join(root, rel);
    if (file !== root && !file.startsWith(root + path.sep)) { res.writeHead(403).end(); return; }
    if (rel.endsWith('/')) file = path.join(file, 'index.html');
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'content-length': body.length,
        'cache-control': 'no-cache',
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  server.keepAliveTimeout = 5000;
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}/`,
        port,
        stop: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
      });
    });
  });
}

// Run directly: serve until killed.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const [root, port] = process.argv.slice(2);
  if (!root || !/^\d+$/.test(port ?? '')) {
    console.error('usage: node scripts/static-server.mjs ROOT PORT');
    process.exit(2);
  }
  startNodeServer(root, Number(port)).catch((e) => {
    console.error(`static-server: ${e.message}`);
    process.exit(1);
  });
}
