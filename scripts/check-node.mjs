// Plain JavaScript on purpose: it must run, and explain itself, on any Node.js a newcomer has.
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(
    `Ledgerline needs Node.js 20.19 or newer; this is Node.js ${process.versions.node}.\n` +
      "Install a current release (22 or 24 LTS) from nodejs.org or with your version manager (nvm use reads .nvmrc).",
  );
  process.exit(1);
}
