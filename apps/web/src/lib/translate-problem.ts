import type { TFunction } from 'i18next';

/**
 * The server and the contract word their messages in English (RFC 9457 `detail` and field
 * `errors`). The 'validation' namespace (locales/validation/<language>.json) is keyed by those
 * exact texts; messages contain '.' and ':', so neither may split the key.
 */
const LOOKUP = {
  ns: 'validation',
  keySeparator: false,
  nsSeparator: false,
  // React escapes the text it renders; escaping here would show a role named R&D as R&amp;D.
  interpolation: { escapeValue: false },
} as const;

type Values = Record<string, string | number>;

export interface ProblemTemplate {
  /** Matches the server's message, capturing its runtime values. */
  pattern: RegExp;
  /** The key in the 'validation' namespace: the English text with {{placeholders}}. */
  key: string;
  values: (match: RegExpExecArray) => Values;
}

// `count` selects i18next's plural form: the key itself, or `<key>_one` for 1.
const count = (match: RegExpExecArray): Values => ({ count: Number(match[1]) });
const name = (match: RegExpExecArray): Values => ({ name: match[1]! });
const builtInRole = (verb: string): ProblemTemplate => ({
  pattern: new RegExp(`^The built-in role (.+) cannot be ${verb}\\.$`),
  key: `The built-in role {{name}} cannot be ${verb}.`,
  values: name,
});
const systemPermission = (verb: string): ProblemTemplate => ({
  pattern: new RegExp(`^The system permission (.+) cannot be ${verb}\\.$`),
  key: `The system permission {{name}} cannot be ${verb}.`,
  values: name,
});

/** Server messages that carry runtime values (counts, names), as written in apps/server/src. */
export const problemTemplates: readonly ProblemTemplate[] = [
  {
    // roles/service.ts: "held by 1 user" or "held by 3 users".
    pattern: /^This role is held by (\d+) users?\. Give them another role first\.$/,
    key: 'This role is held by {{count}} users. Give them another role first.',
    values: count,
  },
  {
    // auth/account-throttle.ts
    pattern: /^Too many requests for this address\. Try again in (\d+) minute\(s\)\.$/,
    key: 'Too many requests for this address. Try again in {{count}} minute(s).',
    values: count,
  },
  {
    // auth/account-routes.ts (rate limit per client address)
    pattern: /^Too many requests\. Try again in (\d+) seconds\.$/,
    key: 'Too many requests. Try again in {{count}} seconds.',
    values: count,
  },
  {
    // assistant/routes.ts (rate limit per user)
    pattern: /^You have sent too many messages\. Try again in (\d+) seconds\.$/,
    key: 'You have sent too many messages. Try again in {{count}} seconds.',
    values: count,
  },
  builtInRole('renamed'),
  builtInRole('deactivated'),
  builtInRole('changed this way'),
  builtInRole('deleted'),
  systemPermission('changed this way'),
  systemPermission('deleted'),
  {
    // http/auth-guard.ts
    pattern: /^You need the permission "(.+)" to do this\.$/,
    key: 'You need the permission "{{permission}}" to do this.',
    values: (match) => ({ permission: match[1]! }),
  },
  {
    // auth/google.ts
    pattern:
      /^There is no account for (.+) in this tenant, and it does not allow sign-up\. Ask an administrator to invite you\.$/,
    key: 'There is no account for {{email}} in this tenant, and it does not allow sign-up. Ask an administrator to invite you.',
    values: (match) => ({ email: match[1]! }),
  },
  {
    // http/problem.ts, the not-found handler: "There is no GET /api/v1.0/x."
    pattern: /^There is no ([A-Z]+) (\S+)\.$/,
    key: 'There is no {{method}} {{path}}.',
    values: (match) => ({ method: match[1]!, path: match[2]! }),
  },
];

/**
 * A server or contract message in the interface language: the exact text if the namespace
 * has it, else the template it was built from, else the message as it came (English beats
 * nothing, and an unknown message still tells the administrator what failed).
 */
export function translateProblem(t: TFunction, message: string): string {
  const exact = t(message, { ...LOOKUP, defaultValue: message });
  if (exact !== message) return exact;
  for (const template of problemTemplates) {
    const match = template.pattern.exec(message);
    if (!match) continue;
    return t(template.key, { ...LOOKUP, ...template.values(match), defaultValue: message });
  }
  return message;
}
