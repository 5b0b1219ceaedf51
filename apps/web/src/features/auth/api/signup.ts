import { signup } from './account-requests';
import { useAction } from './use-action';

export { signup };

export const useSignup = () => useAction(signup);
