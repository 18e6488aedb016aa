/* laid out against .clang-format on purpose: the check must name it */
int  misformatted (int a){return a+1;}
