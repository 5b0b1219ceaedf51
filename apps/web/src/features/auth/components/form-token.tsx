import { AUTH_FORM_TOKEN_FIELD } from '@tc/contract/auth-page';
import { useAuthPage } from '../auth-page-context';

/**
 * The page's form token, posted with every form the server rendered: the server refuses a
 * form without the token of this browser (a post that another site made the browser send).
 */
export function FormToken() {
  const { state } = useAuthPage();
  return state.formToken ? (
    <input type="hidden" name={AUTH_FORM_TOKEN_FIELD} value={state.formToken} />
  ) : null;
}
