/* EXPERIMENT (issue 24, item 3), the "two pairs at once" variant in isolation:
 * the row loops of the C kernel (synagree/distance/_tedc_zs.h: a forest row and
 * a prefix row, int32 cells, unit renames), run for two independent tables one
 * after the other ("single") and fused into one column loop with two add->min
 * chains in flight ("fused"), on random column records of width w.  Prints
 * ns per cell and single/fused.  Built and run by bench_kernel.py --interleave:
 *
 *     gcc -O3 -funroll-loops -ffp-contract=off -fno-math-errno rows_micro.c -o rows_micro
 *     ./rows_micro 40
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <time.h>
typedef int32_t CELL;
#define BIG (1<<29)
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}

static inline __attribute__((always_inline)) void
prefix_row(size_t w, const uint32_t *rec, const CELL *fd, const CELL *up, CELL *restrict cur,
           CELL *tdr, const CELL *cic, CELL da, CELL left, const CELL *ren, uint32_t la, size_t DUMP)
{
    for (size_t cc = 0; cc < w; cc++) {
        const uint32_t *q = rec + 4 * cc;
        uint32_t wb = q[3];
        CELL rt = up[(ptrdiff_t)cc - 1] + ren[la != q[2]];
        CELL rf = fd[q[0]] + tdr[q[1]];
        CELL rr = wb != DUMP ? rt : rf;
        CELL d = up[cc] + da;
        d = d < rr ? d : rr;
        CELL ins = left + cic[cc];
        CELL v = d < ins ? d : ins;
        cur[cc] = v;
        tdr[wb] = v;
        left = v;
    }
}
static inline __attribute__((always_inline)) void
fused(size_t w, const uint32_t *rec, const CELL *cic, size_t DUMP, const CELL *ren,
      const CELL *fa, const CELL *upa, CELL *restrict cura, CELL *tda, CELL daa, uint32_t laa,
      const uint32_t *recb, const CELL *cicb,
      const CELL *fb, const CELL *upb, CELL *restrict curb, CELL *tdb, CELL dab, uint32_t lab)
{
    CELL lefta = BIG, leftb = BIG;
    for (size_t cc = 0; cc < w; cc++) {
        const uint32_t *q = rec + 4 * cc;
        const uint32_t wb = q[3];
        CELL rta = upa[(ptrdiff_t)cc - 1] + ren[laa != q[2]];
        CELL rfa = fa[q[0]] + tda[q[1]];
        CELL rra = wb != DUMP ? rta : rfa;
        CELL dxa = upa[cc] + daa; dxa = dxa < rra ? dxa : rra;
        CELL insa = lefta + cic[cc]; CELL va = dxa < insa ? dxa : insa;
        cura[cc] = va; tda[wb] = va; lefta = va;
        const uint32_t *p = recb + 4 * cc;
        const uint32_t wbb = p[3];
        CELL rtb = upb[(ptrdiff_t)cc - 1] + ren[lab != p[2]];
        CELL rfb = fb[p[0]] + tdb[p[1]];
        CELL rrb = wbb != DUMP ? rtb : rfb;
        CELL dxb = upb[cc] + dab; dxb = dxb < rrb ? dxb : rrb;
        CELL insb = leftb + cicb[cc]; CELL vb = dxb < insb ? dxb : insb;
        curb[cc] = vb; tdb[wbb] = vb; leftb = vb;
    }
}
static inline __attribute__((always_inline)) void
forest_row(size_t w, const uint32_t *rec, const CELL *pr, const CELL *up, CELL *restrict cur,
           const CELL *tdr, const CELL *cic, CELL da)
{
    CELL left = BIG;
    for (size_t cc = 0; cc < w; cc++) {
        const uint32_t *q = rec + 4 * cc;
        CELL rr = pr[q[0]] + tdr[q[1]];
        CELL d = up[cc] + da;
        d = d < rr ? d : rr;
        CELL ins = left + cic[cc];
        CELL v = d < ins ? d : ins;
        cur[cc] = v;
        left = v;
    }
}
static inline __attribute__((always_inline)) void
forest_fused(size_t w, const uint32_t *rec, const CELL *cic,
             const CELL *pra, const CELL *upa, CELL *restrict cura, const CELL *tda, CELL daa,
             const uint32_t *recb, const CELL *cicb,
             const CELL *prb, const CELL *upb, CELL *restrict curb, const CELL *tdb, CELL dab)
{
    CELL lefta = BIG, leftb = BIG;
    for (size_t cc = 0; cc < w; cc++) {
        const uint32_t *q = rec + 4 * cc, *p = recb + 4 * cc;
        CELL rra = pra[q[0]] + tda[q[1]];
        CELL da_ = upa[cc] + daa; da_ = da_ < rra ? da_ : rra;
        CELL insa = lefta + cic[cc]; CELL va = da_ < insa ? da_ : insa;
        cura[cc] = va; lefta = va;
        CELL rrb = prb[p[0]] + tdb[p[1]];
        CELL db_ = upb[cc] + dab; db_ = db_ < rrb ? db_ : rrb;
        CELL insb = leftb + cicb[cc]; CELL vb = db_ < insb ? db_ : insb;
        curb[cc] = vb; leftb = vb;
    }
}
int main(int argc, char **argv) {
    size_t w = argc > 1 ? atoi(argv[1]) : 40, rows = 20, DUMP = 100;
    uint32_t *rec = malloc(4*w*4), *recb = malloc(4*w*4);
    CELL *cic = malloc(w*4), *cicb = malloc(w*4), ren[2] = {0,1};
    CELL *fa = calloc((rows+2)*w+8,4), *fb = calloc((rows+2)*w+8,4);
    CELL *tda = calloc(rows*128,4), *tdb = calloc(rows*128,4);
    srand(1);
    for (size_t c=0;c<w;c++){ for(int k=0;k<2;k++){ uint32_t *r = k? recb+4*c : rec+4*c;
        r[0]=rand()%w; r[1]=rand()%DUMP; r[2]=rand()%5; r[3]= rand()%3==0 ? rand()%DUMP : DUMP; }
        cic[c]=1; cicb[c]=1; }
    long reps = 2000000/ (w*rows) * 50;
    double best1=1e9,best2=1e9;
    volatile CELL sink=0;
    for (int round=0; round<7; round++){
        double t=now();
        for (long r=0;r<reps;r++) for (size_t x=1;x<=rows;x++){
            prefix_row(w, rec, fa, fa+(x-1)*w+1, fa+x*w+1, tda+(x-1)*128, cic, 1, BIG, ren, x%5, DUMP);
            prefix_row(w, recb, fb, fb+(x-1)*w+1, fb+x*w+1, tdb+(x-1)*128, cicb, 1, BIG, ren, x%3, DUMP);
        }
        double t1=now()-t; t=now();
        for (long r=0;r<reps;r++) for (size_t x=1;x<=rows;x++)
            fused(w, rec, cic, DUMP, ren, fa, fa+(x-1)*w+1, fa+x*w+1, tda+(x-1)*128, 1, x%5,
                  recb, cicb, fb, fb+(x-1)*w+1, fb+x*w+1, tdb+(x-1)*128, 1, x%3);
        double t2=now()-t;
        if(t1<best1)best1=t1; if(t2<best2)best2=t2;
        sink += fa[rows*w] + fb[rows*w];
    }
    double bf1=1e9,bf2=1e9;
    for (int round=0; round<7; round++){
        double t=now();
        for (long r=0;r<reps;r++) for (size_t x=1;x<=rows;x++){
            forest_row(w, rec, fa, fa+(x-1)*w+1, fa+x*w+1, tda+(x-1)*128, cic, 1);
            forest_row(w, recb, fb, fb+(x-1)*w+1, fb+x*w+1, tdb+(x-1)*128, cicb, 1);
        }
        double t1=now()-t; t=now();
        for (long r=0;r<reps;r++) for (size_t x=1;x<=rows;x++)
            forest_fused(w, rec, cic, fa, fa+(x-1)*w+1, fa+x*w+1, tda+(x-1)*128, 1,
                         recb, cicb, fb, fb+(x-1)*w+1, fb+x*w+1, tdb+(x-1)*128, 1);
        double t2=now()-t;
        if(t1<bf1)bf1=t1; if(t2<bf2)bf2=t2;
        sink += fa[rows*w] + fb[rows*w];
    }
    double cells = 2.0*reps*rows*w;
    printf("w=%zu forest rows: single %.3f ns/cell, fused %.3f ns/cell, single/fused %.2fx\n", w, bf1/cells*1e9, bf2/cells*1e9, bf1/bf2);
    printf("w=%zu prefix rows: single %.3f ns/cell, fused %.3f ns/cell, single/fused %.2fx\n", w, best1/cells*1e9, best2/cells*1e9, best1/best2);
    return 0;
}
