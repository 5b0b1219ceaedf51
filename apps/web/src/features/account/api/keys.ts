/** The account page's queries; a mutation invalidates the ones whose answer it changes. */
export const accountKeys = {
  profile: ['account', 'profile'] as const,
  secondFactors: ['account', 'second-factors'] as const,
  sessions: ['account', 'sessions'] as const,
  applications: ['account', 'applications'] as const,
};

/** The user card's query of the auth feature, whose name a profile change alters. */
export const meKey = ['auth', 'me'] as const;
