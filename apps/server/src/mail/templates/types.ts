/** The mails the product sends; each has a subject, a few paragraphs and maybe one button. */
/** The security notices: a second factor changed, a recovery code used, a new browser. */
export type SecurityMailKind =
  | 'totpAdded'
  | 'totpRemoved'
  | 'passkeyAdded'
  | 'passkeyRemoved'
  | 'recoveryCodeUsed'
  | 'secondFactorsReset'
  | 'newBrowser';

export type MailKind =
  'invite' | 'reset' | 'verify' | 'passwordChanged' | 'signupExisting' | SecurityMailKind;

export interface MailParams {
  /** The tenant's name: one address may have accounts in several tenants, so every mail names it. */
  tenant: string;
  /** The recipient's first name; may be empty (e.g. an invited user named from the e-mail). */
  name: string;
  /** The action link, for the kinds that have one. */
  link?: string;
  /** What a security notice is about, e.g. "Chrome on Linux, 203.0.113.7" for a new browser. */
  detail?: string;
}

export interface MailText {
  subject: string;
  paragraphs: string[];
  /** Button label; the link is shown beside it in the text part. */
  action?: string;
}

/** Every user-visible string of one language. */
export interface MailStrings {
  greeting(name: string): string;
  /** Closing line under every mail: why the recipient got it. */
  footer(tenant: string): string;
  kinds: Record<MailKind, (p: MailParams) => MailText>;
}
