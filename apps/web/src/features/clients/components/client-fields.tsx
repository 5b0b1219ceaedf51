import Grid from '@mui/material/Grid';
import { ID_TOKEN_ALGORITHMS, type Client } from '@tc/contract/clients';
import type { Role } from '@tc/contract/roles';
import { useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SelectInput, TextInput, type Option } from '../../../components/form/form-fields';
import { RemoteAutocomplete } from '../../../components/form/remote-autocomplete';
import { useCan } from '../../../lib/permissions';
import type { ClientForm } from '../form-state';
import { GrantTypesField } from './grant-types-field';
import { TrustFields } from './trust-fields';
import { UriListField } from './uri-list-field';

const roleOption = (role: Role): Option => ({ value: role.id, label: role.name });

/** The client form: identity, type and grants, service roles, addresses, ID token signing. */
export function ClientFields(props: {
  control: Control<ClientForm, unknown, unknown>;
  row?: Client;
  disabled: boolean;
  autoFocus: boolean;
}) {
  const { t } = useTranslation(['clients', 'lists']);
  const { control, disabled } = props;
  const builtIn = props.row?.builtIn ?? false;
  // The console's own client changes its name only (the server refuses the rest).
  const fixed = disabled || builtIn;
  const [type, grants] = useWatch({ control, name: ['type', 'grantTypes'] });
  const serviceGrant = type === 'confidential' && grants.includes('client_credentials');
  // Without roles:read the chosen service roles show by id and nothing is offered.
  const mayReadRoles = useCan('roles:read');
  const half = { xs: 12, sm: 6 };
  const uri = (name: 'redirectUris' | 'postLogoutRedirectUris' | 'webOrigins', example: string) => (
    <Grid size={12}>
      <UriListField
        control={control}
        name={name}
        label={t(name)}
        hint={t(`${name}Hint`)}
        placeholder={example}
        disabled={fixed}
      />
    </Grid>
  );

  return (
    <Grid container columnSpacing={2}>
      <Grid size={half}>
        <TextInput
          control={control}
          name="name"
          label={t('name')}
          required
          autoFocus={props.autoFocus}
          disabled={disabled}
        />
      </Grid>
      <Grid size={half}>
        <TextInput
          control={control}
          name="clientId"
          label={t('clientId')}
          required
          placeholder="my-app"
          disabled={fixed}
          helperText={builtIn ? t('builtInHint') : t('clientIdHint')}
        />
      </Grid>
      <Grid size={half}>
        <SelectInput
          control={control}
          name="type"
          label={t('type')}
          required
          options={[
            { value: 'confidential', label: t('types.confidential') },
            { value: 'public', label: t('types.public') },
          ]}
          disabled={fixed}
          helperText={t(type === 'public' ? 'typeHint.public' : 'typeHint.confidential')}
        />
      </Grid>
      <Grid size={half}>
        <SelectInput
          control={control}
          name="idTokenSignedResponseAlg"
          label={t('idTokenAlgorithm')}
          options={ID_TOKEN_ALGORITHMS.map((alg) => ({ value: alg, label: alg }))}
          disabled={fixed}
        />
      </Grid>
      <Grid size={12}>
        <GrantTypesField control={control} type={type} disabled={fixed} />
      </Grid>
      <Grid size={12}>
        <TrustFields control={control} disabled={fixed} />
      </Grid>
      {serviceGrant ? (
        <Grid size={12}>
          <RemoteAutocomplete
            control={control}
            name="serviceRoleIds"
            label={t('serviceRoles')}
            multiple
            entity="roles"
            sortField="name"
            toOption={roleOption}
            searchable={mayReadRoles}
            placeholder={t('lists:choose')}
            helperText={t('serviceRolesHint')}
            disabled={disabled}
          />
        </Grid>
      ) : null}
      {uri('redirectUris', 'https://app.example.com/callback')}
      {uri('postLogoutRedirectUris', 'https://app.example.com/')}
      {uri('webOrigins', 'https://app.example.com')}
    </Grid>
  );
}
