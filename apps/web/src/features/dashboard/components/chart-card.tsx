import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';

export const CHART_HEIGHT = 280;

const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
  padding: 0,
  margin: '-1px',
} as const;

/** The chart's figures as a table: what a screen reader reads instead of the drawing. */
export interface ChartTable {
  columns: [string, string];
  rows: [string, string][];
}

/**
 * One chart of the dashboard in a card with its heading. The drawing is named by the heading
 * and can be browsed with the keyboard (MUI X Charts); its figures also follow as a visually
 * hidden table (WCAG 1.1.1), which screen readers read at once. No data: a sentence instead
 * of an empty plot.
 */
export function ChartCard(props: {
  title: string;
  loading: boolean;
  emptyText: string;
  table: ChartTable;
  children: ReactNode;
}) {
  const headingId = useId();
  const empty = !props.loading && props.table.rows.length === 0;
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{ p: 2, minWidth: 0 }}
    >
      <Typography id={headingId} component="h2" variant="h6" sx={{ mb: 1 }}>
        {props.title}
      </Typography>
      {props.loading ? (
        <Skeleton variant="rounded" height={CHART_HEIGHT} />
      ) : empty ? (
        <Box
          sx={{
            height: CHART_HEIGHT,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            textAlign: 'center',
          }}
        >
          <Typography color="text.secondary">{props.emptyText}</Typography>
        </Box>
      ) : (
        <>
          <Box sx={{ height: CHART_HEIGHT }}>{props.children}</Box>
          <Box component="table" sx={visuallyHidden}>
            <caption>{props.title}</caption>
            <thead>
              <tr>
                <th scope="col">{props.table.columns[0]}</th>
                <th scope="col">{props.table.columns[1]}</th>
              </tr>
            </thead>
            <tbody>
              {props.table.rows.map(([label, value], index) => (
                <tr key={index}>
                  <th scope="row">{label}</th>
                  <td>{value}</td>
                </tr>
              ))}
            </tbody>
          </Box>
        </>
      )}
    </Paper>
  );
}
