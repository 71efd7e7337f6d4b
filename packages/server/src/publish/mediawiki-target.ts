import { credentialsOf, errorWithoutCredentials, urlWithoutCredentials } from "./target-name.ts";
import { isOwnedPage, type WikiTarget, WikiTargetError } from "./wiki-target.ts";
import { wikiTitle } from "./wikitext.ts";

export interface MediawikiOptions {
  /** The wiki's api.php address. */
  apiUrl: string;
  /** Root page; every page of the dictionary is a subpage of it. */
  root: string;
  /** Bot password login (Special:BotPasswords): `User@bot` and its password. */
  user: string | undefined;
  password: string | undefined;
}

type ApiAnswer = Record<string, unknown> & { error?: { code: string; info: string } };

/** A minimal MediaWiki API client with its own cookie jar (the login session lives in cookies). */
class MediawikiApi {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly apiUrl: string,
    private readonly name: string,
  ) {}

  async call(params: Record<string, string>, method: "GET" | "POST" = "GET"): Promise<ApiAnswer> {
    const query = new URLSearchParams({ format: "json", formatversion: "2", ...params });
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const response = await fetch(method === "GET" ? `${this.apiUrl}?${query}` : this.apiUrl, {
      method,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(method === "POST" ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body: method === "POST" ? query : undefined,
    }).catch((error: unknown) => {
      // fetch's message repeats the address, with any user name and password in it.
      throw new WikiTargetError(`${this.name} cannot be reached`, {
        cause: errorWithoutCredentials(error, credentialsOf(this.apiUrl)),
      });
    });
    for (const set of response.headers.getSetCookie()) {
      const [pair] = set.split(";");
      const eq = pair.indexOf("=");
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    if (!response.ok) throw new WikiTargetError(`the wiki answered ${response.status}`);
    const answer = (await response.json().catch((error: unknown) => {
      throw new WikiTargetError(`${this.name} did not answer as a MediaWiki API`, {
        cause: error,
      });
    })) as ApiAnswer;
    if (answer.error) {
      // An internal error's text is the wiki's server detail (with $wgShowExceptionDetails, its
      // SQL and file paths); a refusal's text is written for wiki users.
      if (answer.error.code.startsWith("internal_api_error"))
        throw new WikiTargetError("the wiki failed with an internal error", {
          cause: new Error(answer.error.info),
        });
      throw new WikiTargetError(`the wiki refused: ${answer.error.info}`);
    }
    return answer;
  }

  /** Forgets the session: the wiki refuses a second login in a session already logged in. */
  reset(): void {
    this.cookies.clear();
  }

  async token(type: "login" | "csrf"): Promise<string> {
    const answer = await this.call({ action: "query", meta: "tokens", type });
    return (answer.query as { tokens: Record<string, string> }).tokens[`${type}token`];
  }
}

/**
 * Wikitext pages on a MediaWiki, as subpages of a root page, written through the API with a bot
 * password. MediaWiki itself makes no new revision when a page's text is unchanged; pages of removed
 * objects are deleted when the bot may delete, otherwise marked as no longer published.
 */
export function mediawikiTarget(options: MediawikiOptions): WikiTarget {
  const address = urlWithoutCredentials(options.apiUrl);
  const api = new MediawikiApi(options.apiUrl, `the wiki at ${address}`);
  let csrf = "";
  // The root as the wiki writes it (spaces, capital first letter) and its namespace.
  let root = { title: options.root, ns: 0 };
  // The wiki shows underscores as spaces; page ids hold no spaces and nothing else the wiki
  // folds (see dictionary-pages.ts), so a title maps back to the id it was written under.
  const idOf = (title: string) =>
    title === root.title ? "Home" : title.slice(root.title.length + 1).replaceAll(" ", "_");

  async function edit(title: string, text: string): Promise<void> {
    const answer = await api.call(
      {
        action: "edit",
        title,
        text,
        summary: "Data dictionary publish",
        bot: "1",
        token: csrf,
      },
      "POST",
    );
    const result = (answer.edit as { result?: string } | undefined)?.result;
    if (result !== "Success")
      throw new WikiTargetError(`the wiki did not save '${title}'`, {
        cause: new Error(JSON.stringify(answer.edit)),
      });
  }

  async function login(): Promise<void> {
    if (!options.user || !options.password)
      throw new WikiTargetError(
        "WIKI_USER and WIKI_PASSWORD (a bot password) are required for a MediaWiki target",
      );
    api.reset();
    const answer = await api.call(
      {
        action: "login",
        lgname: options.user,
        lgpassword: options.password,
        lgtoken: await api.token("login"),
      },
      "POST",
    );
    const result = (answer.login as { result: string; reason?: string }).result;
    if (result !== "Success")
      throw new WikiTargetError(`the wiki refused the bot login (${result})`);
    csrf = await api.token("csrf");
    const info = await api.call({ action: "query", titles: options.root });
    const page = (info.query as { pages: { title: string; ns: number; invalid?: boolean }[] })
      .pages[0];
    if (!page || page.invalid)
      throw new WikiTargetError(
        `WIKI_ROOT '${options.root}' is not a valid page title on the wiki`,
      );
    root = { title: page.title, ns: page.ns };
  }

  async function contents(titles: string[]): Promise<Map<string, string>> {
    const pages = new Map<string, string>();
    for (let i = 0; i < titles.length; i += 50) {
      const answer = await api.call({
        action: "query",
        prop: "revisions",
        rvprop: "content",
        rvslots: "main",
        titles: titles.slice(i, i + 50).join("|"),
      });
      for (const page of (
        answer.query as {
          pages: { title: string; revisions?: { slots: { main: { content: string } } }[] }[];
        }
      ).pages) {
        const text = page.revisions?.[0]?.slots.main.content;
        if (text !== undefined) pages.set(idOf(page.title), `${text}\n`);
      }
    }
    return pages;
  }

  return {
    description: `MediaWiki ${address} under '${options.root}'`,
    format: "wikitext",
    indexUrl: address.replace(
      /api\.php$/,
      `index.php?title=${encodeURIComponent(options.root.replaceAll(" ", "_"))}`,
    ),
    async listPages() {
      await login();
      const titles = [root.title];
      // allpages wants the prefix without its namespace.
      const prefix = root.ns === 0 ? root.title : root.title.slice(root.title.indexOf(":") + 1);
      let from: Record<string, string> = {};
      for (;;) {
        const answer = await api.call({
          action: "query",
          list: "allpages",
          apnamespace: String(root.ns),
          apprefix: `${prefix}/`,
          aplimit: "max",
          ...from,
        });
        titles.push(
          ...(answer.query as { allpages: { title: string }[] }).allpages.map((p) => p.title),
        );
        const next = answer.continue as { apcontinue?: string } | undefined;
        if (!next?.apcontinue) break;
        from = { apcontinue: next.apcontinue };
      }
      const pages = await contents(titles);
      return new Map([...pages].filter(([id]) => isOwnedPage(id)));
    },
    digest: (text) => text,
    putPage: (id, text) => edit(wikiTitle(options.root, { id }), text.trimEnd()),
    async deletePage(id) {
      const title = wikiTitle(options.root, { id });
      try {
        await api.call(
          { action: "delete", title, reason: "No longer in the data dictionary", token: csrf },
          "POST",
        );
      } catch {
        await edit(title, "''This object is no longer in the data dictionary.''");
      }
    },
    finish: async () => undefined,
  };
}
