import { resetPassword } from './account-requests';
import { useAction } from './use-action';

export { resetPassword };

export const useResetPassword = () => useAction(resetPassword);
