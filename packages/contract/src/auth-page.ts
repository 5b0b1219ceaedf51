import type { TenantInfo } from './identity';
import type { SignInStep } from './sign-in-steps';

/**
 * The sign-in pages (sign-in, the identity provider's hosted sign-in, sign-up, forgot and new
 * password and the pages around them) are rendered by the server into their HTML, so that they
 * show and work — a plain form post — before their script runs, and the script takes the same
 * markup over (hydration). This is what both sides agree on: the state a page is rendered
 * from, which the server writes into the page for the script to start from.
 */

export const AUTH_PAGE_LANGUAGES = ['en', 'de', 'fr', 'it'] as const;
export type AuthPageLanguage = (typeof AUTH_PAGE_LANGUAGES)[number];

/** The cookie holding the language chosen on any page, read by the server to render in it. */
export const LANGUAGE_COOKIE = 'tc_lang';

/** The addresses of the sign-in pages, each served as its own server-rendered page. */
export const AUTH_PAGE_PATHS = {
  signIn: '/login',
  signUp: '/signup',
  forgotPassword: '/forgotpassword',
  checkEmail: '/checkemail',
  newPassword: '/newpassword',
  passwordReset: '/passwordreset',
  verifyEmail: '/verifyemail',
  /** Where the identity provider sends the console back with its code. */
  callback: '/auth/callback',
} as const;

/**
 * `consent` is shown at the hosted sign-in's address when the user is signed in and an
 * application that is not first-party asks for more than they allowed it.
 */
export type AuthPageName = keyof typeof AUTH_PAGE_PATHS | 'hostedSignIn' | 'consent';

/**
 * A failure of a form posted without script, in the shapes the script meets: the OAuth error
 * of a sign-in step, or the problem of an API route (its code and fields).
 */
export type AuthPageError =
  | { kind: 'oauth'; error: string; description: string }
  | {
      kind: 'problem';
      status: number;
      code: string;
      params?: Record<string, string | number>;
      fields?: Record<string, { code: string; params?: Record<string, string | number> }>;
    };

/** A sign-in that stopped after its first factor: the step the page asks for next. */
export interface PendingSignInStep {
  /** `/login-actions/{realm}/{uid}`: where the following steps post. */
  stepsPath: string;
  step: Exclude<SignInStep, { next: 'done' }>;
}

export interface AuthPageState {
  page: AuthPageName;
  language: AuthPageLanguage;
  /** The tenant of this address, or of the realm an application signs in to; null: none. */
  tenant: TenantInfo | null;
  /** The address rendered, path and query (after a form post: the post's path). */
  url: string;
  /** What a form posted without script sent, shown again (never a password). */
  values?: Record<string, string>;
  /**
   * Why a form posted without script was refused. Field problems (`fields`) are shown at
   * their fields, as the script shows the server's; the checks the script makes before
   * posting (passwords that differ, terms not accepted) come back this way too.
   */
  error?: AuthPageError;
  /** A word from the server about what just happened, e.g. `passwordChanged`. */
  notice?: string;
  /** The hosted sign-in of an application: its request's details. */
  hosted?: {
    realm: string;
    uid: string;
    loginHint: string | null;
    passkeys: boolean;
    /** Set when the request was refused or has expired. */
    expired?: boolean;
  };
  /** The consent page: the application asking and what it asks for (CONSENT_SCOPES). */
  consent?: { clientName: string; scopes: string[] };
  /** Set when a sign-in posted without script waits for a second step. */
  pending?: PendingSignInStep;
  /**
   * The form token every form of the page posts (`AUTH_FORM_TOKEN_FIELD`), bound to the
   * browser's form cookie: a form posted from another site has neither, and is refused.
   */
  formToken?: string;
}

/** What the server-side renderer answers: the page's markup and the texts it used. */
export interface RenderedAuthPage {
  html: string;
  /** The translation resources of the page's language the script needs, embedded in the page. */
  texts: Record<string, unknown>;
  title: string;
}

/** The renderer the web build exports (`renderAuthPage`), which the server loads. */
export type RenderAuthPage = (state: AuthPageState) => RenderedAuthPage;

/** The element holding the page's state and texts, as JSON, for the script to start from. */
export const AUTH_BOOT_ELEMENT_ID = 'auth-boot';
export interface AuthBoot {
  state: AuthPageState;
  texts: Record<string, unknown>;
}

/** The hidden field carrying the page's form token in every form the server renders. */
export const AUTH_FORM_TOKEN_FIELD = '_csrf';

/** The names of the fields of the forms that post without script. */
export const AUTH_FORM_FIELDS = {
  signIn: ['username', 'password', 'remember'],
  secondFactor: ['code'],
  signUp: ['fullName', 'email', 'password', 'repeat'],
  forgotPassword: ['email'],
  newPassword: ['token', 'password', 'confirm'],
  consent: ['decision'],
} as const;

/**
 * A console sign-in posted without script: what its code exchange needs, kept by the browser
 * for the callback page (or the second step's page) to finish with once script runs. Not
 * HttpOnly, as that script reads it; SameSite=Lax, ten minutes. Value: base64url of the JSON.
 */
export const CONSOLE_SIGN_IN_COOKIE = 'tc_console_signin';
export interface ConsoleSignInCookie {
  realm: string;
  verifier: string;
  state: string;
  nonce: string;
  remember: boolean;
  stepsPath: string;
}
