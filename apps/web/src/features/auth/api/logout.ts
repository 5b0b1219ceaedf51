// Moved to lib/ so that the onboarding can log out too (features do not import each other).
export { logout, useLogout } from '../../../lib/logout';
