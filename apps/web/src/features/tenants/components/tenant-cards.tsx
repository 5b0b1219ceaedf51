import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardHeader from '@mui/material/CardHeader';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import type { Tenant } from '@tc/contract/tenants';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DomainLink, LoginButton, TenantAvatar } from './tenant-links';

/**
 * The card view of the tenants: logo, name, domain link and "Log in", in 12 / 6 / 4
 * columns at xs / sm / md. `menu` is the row's View / Edit / Delete menu of the list.
 */
export function TenantCards(props: { rows: Tenant[]; menu: (row: Tenant) => ReactNode }) {
  const { t } = useTranslation('tenants');
  if (props.rows.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
        {t('noMatches')}
      </Typography>
    );
  }
  return (
    <Grid container spacing={2} component="ul" aria-label={t('title')} sx={{ p: 0, m: 0 }}>
      {props.rows.map((tenant) => (
        <Grid
          key={tenant.id}
          size={{ xs: 12, sm: 6, md: 4 }}
          component="li"
          sx={{ listStyle: 'none' }}
        >
          <Card
            variant="outlined"
            sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
          >
            <CardHeader
              avatar={<TenantAvatar tenant={tenant} size={48} />}
              action={props.menu(tenant)}
              disableTypography
              title={
                <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }} noWrap>
                  {tenant.name}
                </Typography>
              }
              subheader={<DomainLink domain={tenant.domain} />}
              sx={{ '& .MuiCardHeader-content': { minWidth: 0 } }}
            />
            <CardActions sx={{ mt: 'auto', px: 2, pb: 2 }}>
              <LoginButton tenant={tenant} />
            </CardActions>
          </Card>
        </Grid>
      ))}
    </Grid>
  );
}
