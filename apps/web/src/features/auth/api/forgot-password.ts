import { forgotPassword } from './account-requests';
import { useAction } from './use-action';

export { forgotPassword };

export const useForgotPassword = () => useAction(forgotPassword);
