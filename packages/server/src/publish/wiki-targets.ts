import type { Config } from "../config.ts";
import { gitTarget } from "./git-target.ts";
import { mediawikiTarget } from "./mediawiki-target.ts";
import type { WikiTarget } from "./wiki-target.ts";

/** The target WIKI_TARGET names: `git:<folder or URL>` or `mediawiki:<api.php URL>`. */
export function wikiTargetOf(
  config: Pick<Config, "wikiTarget" | "wikiRoot" | "wikiUser" | "wikiPassword" | "dataDir">,
): WikiTarget {
  const [kind, ...rest] = config.wikiTarget.split(":");
  const location = rest.join(":");
  if (kind === "mediawiki") {
    return mediawikiTarget({
      apiUrl: location,
      root: config.wikiRoot,
      user: config.wikiUser,
      password: config.wikiPassword,
    });
  }
  return gitTarget(location, config.dataDir);
}
