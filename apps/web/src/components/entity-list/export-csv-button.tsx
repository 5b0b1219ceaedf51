import DownloadIcon from '@mui/icons-material/Download';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import type { PageRequest } from '@tc/contract/paging';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadCsv } from '../../lib/csv-download';
import { describeFailure } from '../../lib/problem-text';
import { notify } from '../notifications';

export interface CsvExport {
  /** The export route under the API's base, e.g. `/users/export`. */
  path: string;
  /** The downloaded file's name when the server does not name it. */
  fileName: string;
}

/**
 * "Export CSV": sends the list's current request (filter, search and sort; paging is left out,
 * since the export holds every matching row) and saves the answer. Busy while the file comes;
 * a failure is a notice with the server's reason.
 */
export function ExportCsvButton({
  csvExport,
  request,
}: {
  csvExport: CsvExport;
  request: PageRequest;
}) {
  const { t, i18n } = useTranslation(['lists', 'problems']);
  const [busy, setBusy] = useState(false);
  const exportList = async () => {
    setBusy(true);
    try {
      await downloadCsv(
        csvExport.path,
        { filter: request.filter, listSort: request.listSort },
        csvExport.fileName,
        i18n.resolvedLanguage,
      );
    } catch (error) {
      notify(t('lists:exportFailed', { message: describeFailure(t, error) }), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="outlined"
      startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <DownloadIcon />}
      onClick={() => void exportList()}
      disabled={busy}
      aria-busy={busy}
    >
      {busy ? t('lists:exporting') : t('lists:exportCsv')}
    </Button>
  );
}
