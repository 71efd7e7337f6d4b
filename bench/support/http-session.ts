import http from "node:http";

export interface Answer {
  status: number;
  body: Buffer;
  setCookie?: string[];
}

/** Longest a request may take before it counts as an error. */
const TIMEOUT_MS = 30_000;

/**
 * One signed-in browser: its own keep-alive connection (one request at a time, as a user who
 * waits for each answer) and the session cookie from /auth/login. node:http rather than fetch,
 * as it costs the load generator less CPU per request on a machine the server shares.
 */
export class HttpSession {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private cookie = "";

  constructor(
    private readonly origin: URL,
    readonly username: string,
    private readonly password: string,
  ) {}

  /** Signs in through /auth/login and keeps the session cookie. */
  async login(): Promise<Answer> {
    const form = new URLSearchParams({ username: this.username, password: this.password });
    const answer = await this.send("/auth/login", "application/x-www-form-urlencoded", form);
    if (answer.status === 200) {
      const cookie = answer.setCookie?.find((c) => c.startsWith("ledgerline_session="));
      if (!cookie) throw new Error(`${this.username}: login answered no session cookie`);
      this.cookie = cookie.split(";")[0];
    }
    return answer;
  }

  postJson(path: string, body: unknown): Promise<Answer> {
    return this.send(path, "application/json", JSON.stringify(body));
  }

  /** Ends the session (POST /auth/logout) and closes the connection. */
  async logout(): Promise<Answer> {
    try {
      return await this.send("/auth/logout", undefined, undefined);
    } finally {
      this.agent.destroy();
    }
  }

  private send(
    path: string,
    contentType: string | undefined,
    body: string | URLSearchParams | undefined,
  ): Promise<Answer> {
    const payload = body === undefined ? undefined : Buffer.from(body.toString());
    return new Promise((resolve, reject) => {
      const req = http.request(
        new URL(path, this.origin),
        {
          method: "POST",
          agent: this.agent,
          timeout: TIMEOUT_MS,
          headers: {
            ...(contentType ? { "content-type": contentType } : {}),
            ...(payload ? { "content-length": payload.length } : {}),
            ...(this.cookie ? { cookie: this.cookie, "sec-fetch-site": "same-origin" } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks),
              setCookie: res.headers["set-cookie"],
            }),
          );
          res.on("error", reject);
        },
      );
      req.on("timeout", () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
      req.on("error", reject);
      req.end(payload);
    });
  }
}
