/*
 * static-server.mjs - serves the built site (web/dist) the way any plain web server
 * would, so the tests check the promise that `npm run build` yields a static
 * site that works offline from any web server (no dev server, no proxy, no rewrites).
 *
 * Interface:
 *   startStaticServer(root, { prefix }) -> Promise<{ url, close() }>
 *     Copies `root` to a private temporary directory and serves the copy, so a
 *     rebuild of web/dist during a run (other engineers share the checkout) cannot
 *     swap files under a test; close() stops the server and removes the copy.
 *     Listens on 127.0.0.1 on a free port (port 0: tests never collide with another
 *     engineer's dev server).  GET/HEAD only; a directory serves its index.html; the
 *     query string and hash are ignored; files are served with the MIME type a
 *     browser needs (application/wasm matters: streaming compilation requires it).
 *     `prefix` (default "/") is the path the site lives under, as on a department
 *     web server ("/course/pagelab/"); `url` includes it, and nothing outside it
 *     is served.
 *   DIST_DIR  the built site, web/dist.
 *
 * Invariants: nothing outside the copy is ever served (a path that resolves
 * outside it gets 404); a missing root is an error at start, naming the build
 * command.
 */
import { createServer } from 'node:http';
import { cpSync, createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DIST_DIR = fileURLToPath(new URL('../../web/dist/', import.meta.url));

const MIME_TYPES = {
	'.html': 'text/html; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.mjs': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.json': 'application/json',
	'.wasm': 'application/wasm',
	'.svg': 'image/svg+xml',
	'.png': 'image/png',
	'.ico': 'image/x-icon',
	'.txt': 'text/plain; charset=utf-8',
	'.woff2': 'font/woff2',
	'.map': 'application/json',
};

function fileFor(root, urlPath) {
	let relative;
	try {
		relative = normalize(decodeURIComponent(urlPath));
	} catch {
		return null;
	}
	let path = resolve(join(root, relative));
	if (path !== root && !path.startsWith(root + sep))
		return null;
	if (existsSync(path) && statSync(path).isDirectory())
		path = join(path, 'index.html');
	return existsSync(path) && statSync(path).isFile() ? path : null;
}

function serve(root, prefix, request, response) {
	const urlPath = new URL(request.url, 'http://localhost').pathname;
	const path = (request.method === 'GET' || request.method === 'HEAD') && urlPath.startsWith(prefix)
		? fileFor(root, urlPath.slice(prefix.length))
		: null;
	if (!path) {
		response.writeHead(404, { 'content-type': 'text/plain' });
		response.end('not found\n');
		return;
	}
	response.writeHead(200, {
		'content-type': MIME_TYPES[extname(path)] || 'application/octet-stream',
		'content-length': statSync(path).size,
		'cache-control': 'no-store',
	});
	if (request.method === 'HEAD')
		response.end();
	else
		createReadStream(path).pipe(response);
}

export function startStaticServer(root = DIST_DIR, { prefix = '/' } = {}) {
	const source = resolve(root);
	if (!existsSync(join(source, 'index.html')))
		return Promise.reject(new Error(`${source}/index.html is missing: run 'npm run build' first`));
	const copy = mkdtempSync(join(tmpdir(), 'pagelab-site-'));
	cpSync(source, copy, { recursive: true });
	const server = createServer((request, response) => serve(copy, prefix, request, response));
	const close = () => new Promise((done) => server.close(done)).then(() => rmSync(copy, { recursive: true, force: true }));
	return new Promise((resolveStart, rejectStart) => {
		server.once('error', (error) => {
			rmSync(copy, { recursive: true, force: true });
			rejectStart(error);
		});
		server.listen(0, '127.0.0.1', () => {
			resolveStart({ url: `http://127.0.0.1:${server.address().port}${prefix}`, close });
		});
	});
}
