import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../lib/paths';
import { useOnboarding } from '../../../lib/onboarding';

/**
 * Opens the onboarding by itself: a tenant user landing on /home whose tenant is
 * not set up yet, and who may set it up, goes to /welcome (which resumes at the saved step).
 * Super administrators have no tenant to set up. Returns the progress for "reopen" links.
 */
export function useOnboardingRedirect(tenantUser: boolean) {
  const navigate = useNavigate();
  const onboarding = useOnboarding(tenantUser);
  const shouldOpen = onboarding.data?.shouldOpen === true;
  useEffect(() => {
    if (shouldOpen) void navigate(paths.welcome, { replace: true });
  }, [shouldOpen, navigate]);
  return onboarding;
}
