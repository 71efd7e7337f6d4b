import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** git's own smart HTTP server (`git http-backend`), behind Basic authentication, on 127.0.0.1. */
export interface GitHttpServer {
  /** `http://127.0.0.1:<port>`: a repository is `${url}/<name>.git`. */
  url: string;
  /** The headers of each request the server was sent. */
  requests: http.IncomingHttpHeaders[];
  close(): Promise<void>;
}

/**
 * Serves the bare repositories under `root` to the user `user` with `password` only (401
 * otherwise, as a hosted wiki does); pushes are accepted.
 */
export async function startGitHttpServer(
  root: string,
  user: string,
  password: string,
): Promise<GitHttpServer> {
  const expected = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
  const requests: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((request, response) => {
    requests.push(request.headers);
    if (request.headers.authorization !== expected) {
      response.writeHead(401, { "www-authenticate": 'Basic realm="wiki"' }).end();
      return;
    }
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const backend = spawn("git", ["http-backend"], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: "1",
        REMOTE_USER: user,
        REQUEST_METHOD: request.method ?? "GET",
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: request.headers["content-type"] ?? "",
        HTTP_CONTENT_ENCODING: request.headers["content-encoding"] ?? "",
        GIT_PROTOCOL: String(request.headers["git-protocol"] ?? ""),
      },
    });
    request.pipe(backend.stdin);
    const chunks: Buffer[] = [];
    backend.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    backend.on("close", () => {
      // A CGI answer: its headers (Status among them), a blank line, its body.
      const output = Buffer.concat(chunks);
      const end = output.indexOf("\r\n\r\n");
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of output.subarray(0, end).toString().split("\r\n")) {
        const colon = line.indexOf(":");
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        if (name === "status") status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      response.writeHead(status, headers).end(output.subarray(end + 4));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
