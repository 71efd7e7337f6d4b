import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  credentialsOf,
  gitTargetName,
  textWithoutCredentials,
  urlWithoutCredentials,
} from "./target-name.ts";

describe("the name users see for a wiki target", () => {
  it("names a folder on the server by its base name, never its path", () => {
    expect(gitTargetName("/var/lib/ledgerline/wiki")).toBe("git repository 'wiki'");
    expect(gitTargetName("/srv/wikis/team wiki/")).toBe("git repository 'team wiki'");
    expect(gitTargetName("relative/dir/docs")).toBe("git repository 'docs'");
    expect(gitTargetName("/")).toBe("git repository");
    expect(gitTargetName("relative/dir/docs")).not.toContain(path.resolve("relative"));
  });

  it("names a file:// repository, which is a server folder too, by its base name", () => {
    expect(gitTargetName("file:///tmp/ledgerline-wiki-x/wiki.git")).toBe(
      "git repository 'wiki.git'",
    );
    expect(gitTargetName("file:///srv/my%20wiki")).toBe("git repository 'my wiki'");
  });

  it("shows a remote's address without user, password, query or fragment", () => {
    const name = gitTargetName("https://deploy:s3cr3t-t0ken@gitlab.example.com/team/app.wiki.git");
    expect(name).toBe("git repository https://gitlab.example.com/team/app.wiki.git");
    expect(gitTargetName("https://oauth2:tok@github.com/o/r.wiki.git?private_token=x#y")).toBe(
      "git repository https://github.com/o/r.wiki.git",
    );
    expect(gitTargetName("ssh://git:pw@git.example.com:2222/team/wiki.git")).toBe(
      "git repository ssh://git.example.com:2222/team/wiki.git",
    );
    expect(gitTargetName("git@github.com:team/app.wiki.git")).toBe(
      "git repository github.com:team/app.wiki.git",
    );
    expect(gitTargetName("user:pw@host.example:team/wiki.git")).toBe(
      "git repository host.example:team/wiki.git",
    );
  });

  it("takes credentials out of a MediaWiki address", () => {
    expect(urlWithoutCredentials("https://bot:pw@wiki.example.org/w/api.php")).toBe(
      "https://wiki.example.org/w/api.php",
    );
    expect(urlWithoutCredentials("http://127.0.0.1:8080/api.php")).toBe(
      "http://127.0.0.1:8080/api.php",
    );
    expect(urlWithoutCredentials("not a url //me:pw@somewhere")).toBe("not a url //somewhere");
  });

  it("takes credentials out of git's texts: every URL's, and the remote's own wherever they stand", () => {
    const location = "https://deploy:p%40ss-w0rd@git.example.com/team/wiki.git";
    expect(credentialsOf(location)).toEqual(["p%40ss-w0rd", "p@ss-w0rd"]);
    expect(credentialsOf("https://ghp_token123@github.com/team/wiki.git")).toEqual([
      "ghp_token123",
    ]);
    expect(credentialsOf("git@github.com:team/wiki.git")).toEqual([]);
    expect(credentialsOf("/srv/wiki")).toEqual([]);
    expect(
      textWithoutCredentials(
        [
          `Command failed: git clone --quiet ${location} /srv/data/wiki-clones/abc`,
          "fatal: unable to access 'https://a:b@c@host/x/': The requested URL returned error: 403",
          "remote: token p@ss-w0rd expired; ssh://git@host/x and me@example.com stay",
        ].join("\n"),
        credentialsOf(location),
      ),
    ).toBe(
      [
        "Command failed: git clone --quiet https://git.example.com/team/wiki.git /srv/data/wiki-clones/abc",
        "fatal: unable to access 'https://host/x/': The requested URL returned error: 403",
        "remote: token [redacted] expired; ssh://host/x and me@example.com stay",
      ].join("\n"),
    );
  });
});
