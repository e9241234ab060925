/**
 * The environment a command hook gets: this process's, minus anything that looks like a credential, so a
 * repository's hook cannot read the user's provider keys. A variable the settings name in `passEnv` (or the host
 * sets in `env`) is passed whatever its name.
 *
 * The rule: a name is secret when one of its `_`-separated words is KEY, APIKEY, TOKEN, SECRET, PASSWORD,
 * PASSWD, PASSPHRASE, CREDENTIAL(S), AUTH, COOKIE, SESSION or PRIVATE, or when it contains APIKEY, TOKEN,
 * SECRET or PASSWORD anywhere (case-insensitive). `OPENAI_API_KEY`, `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`,
 * `AWS_SESSION_TOKEN`, `NPM_TOKEN`, `DB_PASSWORD`, `SSH_AUTH_SOCK` are dropped; `PATH`, `HOME`, `KEYBOARD` stay.
 * A secret inside a value (a password in `DATABASE_URL`) is not detected: name it differently or unset it.
 */
const SECRET_WORDS = new Set([
  "KEY",
  "APIKEY",
  "TOKEN",
  "SECRET",
  "PASSWORD",
  "PASSWD",
  "PASSPHRASE",
  "CREDENTIAL",
  "CREDENTIALS",
  "AUTH",
  "COOKIE",
  "SESSION",
  "PRIVATE",
]);
const SECRET_PARTS = ["APIKEY", "TOKEN", "SECRET", "PASSWORD"];

/** Whether a variable name looks like it holds a credential (see the rule above). */
export function isSecretEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  if (upper.split(/_+/).some((word) => SECRET_WORDS.has(word))) return true;
  return SECRET_PARTS.some((part) => upper.includes(part));
}

/** `env` without secret-looking variables, except those named in `passEnv`. */
export function hookEnvironment(
  env: { [name: string]: string | undefined },
  passEnv: readonly string[] = [],
): { [name: string]: string } {
  const pass = new Set(passEnv);
  const out: { [name: string]: string } = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (pass.has(name) || !isSecretEnvName(name)) out[name] = value;
  }
  return out;
}
