// A tiny static file server for a built site: 127.0.0.1, a random port,
// index.html for folders, the site's 404.html for anything missing.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

const types = {
  ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8",
  ".json": "application/json", ".gz": "application/gzip", ".xml": "application/xml", ".svg": "image/svg+xml", ".woff2": "font/woff2",
  ".woff": "font/woff", ".ttf": "font/ttf", ".png": "image/png",
};

export function serve(root) {
  const server = http.createServer((req, res) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, "http://localhost").pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    let file = path.join(root, path.normalize(pathname));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    if (pathname.endsWith("/")) file = path.join(file, "index.html");
    fs.readFile(file, (error, bytes) => {
      if (error) {
        const missing = path.join(root, "404.html");
        res.writeHead(404, { "content-type": types[".html"] });
        res.end(fs.existsSync(missing) ? fs.readFileSync(missing) : "not found");
        return;
      }
      res.writeHead(200, { "content-type": types[path.extname(file)] || "application/octet-stream", "cache-control": "no-store" });
      res.end(bytes);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const url = `http://127.0.0.1:${server.address().port}`;
      resolve({ url, close: () => new Promise((done) => server.close(done)) });
    });
  });
}
